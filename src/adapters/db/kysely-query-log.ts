import type { QueryLog } from '../../ports/query-log.ts';
import { sql } from 'kysely';
import { toDate, toQueryRecord, type StoreDriver } from './kysely-driver.ts';

/** The QueryLog over Kysely: completed and pending queries, their files, and the instance leases that vouch for pending ones. */
export function createKyselyQueryLog(driver: StoreDriver): QueryLog {
  const { db } = driver;
  return {
    async completeQuery(queryId, fileKey) {
      const result = await driver.write(
        (trx) =>
          trx.updateTable('queries').set({ status: 'completed', file_key: fileKey }).where('query_id', '=', queryId).where('status', '=', 'pending').executeTakeFirst(),
        { retrySafe: true },
      );
      if (result.numUpdatedRows > 0n) return true;
      // A retried write whose first attempt committed finds the query completed already.
      const row = await db.selectFrom('queries').select(['status', 'file_key']).where('query_id', '=', queryId).executeTakeFirst();
      return row?.status === 'completed' && row.file_key === fileKey;
    },


    async pendingQueriesBefore(olderThan) {
      const rows = await db
        .selectFrom('queries')
        .selectAll()
        .where('status', '=', 'pending')
        .where('executed_at', '<', olderThan.getTime())
        .orderBy('executed_at')
        .execute();
      return rows.map(toQueryRecord);
    },

    async renewInstanceLease({ instanceId, until, now }) {
      await driver.write(
        (trx) =>
          trx
            .insertInto('instance_leases')
            .values({ instance_id: instanceId, expires_at: until.getTime(), renewed_at: now.getTime() })
            .onConflict((oc) => oc.column('instance_id').doUpdateSet({ expires_at: until.getTime(), renewed_at: now.getTime() }))
            .execute(),
        { retrySafe: true },
      );
    },

    async liveInstances(now) {
      const rows = await db.selectFrom('instance_leases').select('instance_id').where('expires_at', '>=', now.getTime()).execute();
      return rows.map((r) => r.instance_id);
    },

    async releaseInstanceLease(instanceId) {
      await driver.write((trx) => trx.deleteFrom('instance_leases').where('instance_id', '=', instanceId).execute(), { retrySafe: true });
    },

    async pendingQueriesOfLapsedInstances(now) {
      // No lease row at all: the instance released it (then it had drained) or never took one; either way nobody runs the query.
      const rows = await db
        .selectFrom('queries')
        .leftJoin('instance_leases', 'instance_leases.instance_id', 'queries.instance_id')
        .selectAll('queries')
        .where('queries.status', '=', 'pending')
        .where('queries.instance_id', 'is not', null)
        .where((eb) => eb.or([eb('instance_leases.instance_id', 'is', null), eb('instance_leases.expires_at', '<', now.getTime())]))
        .orderBy('queries.executed_at')
        .execute();
      return rows.map(toQueryRecord);
    },

    async getQuery(accountId, queryId) {
      const row = await db.selectFrom('queries').selectAll().where('query_id', '=', queryId).where('account_id', '=', accountId).executeTakeFirst();
      return row && toQueryRecord(row);
    },

    async history({ accountId, page, perPage, datasetType }) {
      if (!Number.isSafeInteger(page) || page < 1) throw new RangeError('page must be an integer ≥ 1');
      if (!Number.isSafeInteger(perPage) || perPage < 1) throw new RangeError('perPage must be an integer ≥ 1');
      // History lists the queries a client paid for and can download: completed ones.
      let base = db.selectFrom('queries').where('account_id', '=', accountId).where('status', '=', 'completed');
      if (datasetType) base = base.where('dataset_type', '=', datasetType);
      const counted = await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
      const rows = await base
        .selectAll()
        .orderBy('executed_at', 'desc')
        .orderBy('query_id', 'desc')
        .limit(perPage)
        .offset((page - 1) * perPage)
        .execute();
      return { items: rows.map(toQueryRecord), total: Number(counted.n) };
    },

    async usageSince({ accountId, since, limit }) {
      const rows = await db
        .selectFrom('queries')
        // The few columns the figures need; test_data is read in SQL, so the metadata (the whole
        // request echo) is not sent and parsed for every query of a busy month.
        .select(['query_id', 'executed_at', 'key_id', 'n_observations', 'credit_cost', 'geography_selections'])
        .select(sql<number>`case when metadata like '%"test_data":true%' then 1 else 0 end`.as('test_data'))
        .where('account_id', '=', accountId)
        .where('status', '=', 'completed')
        .where('executed_at', '>=', since.getTime())
        .orderBy('executed_at', 'desc')
        .orderBy('query_id', 'desc')
        .limit(limit)
        .execute();
      return rows.map((r) => ({
        queryId: r.query_id,
        executedAt: toDate(r.executed_at),
        keyId: r.key_id,
        nObservations: r.n_observations,
        places: (JSON.parse(r.geography_selections) as unknown[]).length,
        creditCost: r.credit_cost,
        testData: Number(r.test_data) === 1,
      }));
    },

    async expiredFiles(before, limit) {
      const rows = await db
        .selectFrom('queries')
        .selectAll()
        .where('status', '=', 'completed')
        .where('file_key', 'is not', null)
        .where('file_deleted_at', 'is', null)
        .where('download_expires', '<', before.getTime())
        .orderBy('download_expires')
        .limit(limit)
        .execute();
      return rows.map(toQueryRecord);
    },

    async failedQueriesWithFiles(before, limit) {
      const rows = await db
        .selectFrom('queries')
        .selectAll()
        .where('status', '=', 'failed')
        .where('file_deleted_at', 'is', null)
        .where('executed_at', '<', before.getTime())
        .orderBy('executed_at')
        .limit(limit)
        .execute();
      return rows.map(toQueryRecord);
    },

    async markFileDeleted(queryId, now) {
      await driver.write(
        (trx) => trx.updateTable('queries').set({ file_deleted_at: now.getTime() }).where('query_id', '=', queryId).where('file_deleted_at', 'is', null).execute(),
        { retrySafe: true },
      );
    },

  };
}
