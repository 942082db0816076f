import { sql, type Kysely, type Selectable } from 'kysely';
import { newId } from '../../core/keys.ts';
import { creditSummary, freeReset, freeResetDue, refundSplit, splitCharge, tierAt, weeklyAllowance, type ChargeSplit } from '../../core/ledger/rules.ts';
import { currentFreePeriodStart } from '../../core/ledger/weekly-reset.ts';
import { err, ok, type Result } from '../../core/result.ts';
import type { ChargeFailure, ChargeRequest, CreditSummary, Ledger } from '../../ports/ledger.ts';
import { assertCredits, DAY_MS, hashIdempotencyKey, IDEMPOTENCY_TTL_MS, toDate, toQueryRecord, type StoreDriver } from './kysely-driver.ts';
import type { BalancesTable, Database, LedgerKind } from './schema.ts';

type Balance = Selectable<BalancesTable>;

/**
 * The Ledger over Kysely: balances, the append-only ledger, bundles, and the charge and refund
 * of a query. A charge writes the query log's pending row in the same transaction as its debit,
 * and a refund marks it failed in the same transaction as the credit: the one place two
 * aggregates share a transaction, so that a charged query always has its row.
 */
export function createKyselyLedger(driver: StoreDriver): Ledger {
  const { db } = driver;

  const lockBalance = (trx: Kysely<Database>, accountId: string): Promise<Balance> => lockBalanceRow(trx, accountId, driver.rowLocks);

  async function bundleWindows(trx: Kysely<Database>, accountId: string) {
    const rows = await trx.selectFrom('bundles').select(['starts_at', 'expires_at']).where('account_id', '=', accountId).execute();
    return rows.map((r) => ({ startsAt: toDate(r.starts_at), expiresAt: toDate(r.expires_at) }));
  }

  /** The lazy weekly reset, inside the caller's transaction (the balance row is already locked). */
  async function applyFreeReset(trx: Kysely<Database>, balance: Balance, now: Date): Promise<Balance> {
    if (!freeResetDue(toDate(balance.free_period_start), now)) return balance;
    const bundles = await bundleWindows(trx, balance.account_id);
    const reset = freeReset(
      { freeRemaining: balance.free_remaining, freePeriodStart: toDate(balance.free_period_start) },
      now,
      (start) => tierAt(bundles, start),
    );
    if (!reset) return balance;
    await trx
      .updateTable('balances')
      .set({ free_remaining: reset.freeRemaining, free_period_start: reset.freePeriodStart.getTime(), updated_at: now.getTime() })
      .where('account_id', '=', balance.account_id)
      .execute();
    if (reset.delta !== 0) {
      const expired = balance.free_remaining;
      await appendLedger(trx, {
        accountId: balance.account_id,
        kind: 'free_allowance',
        free: reset.delta,
        purchased: 0,
        now,
        note: `weekly reset ${reset.freePeriodStart.toISOString()}: ${expired} unused expired, ${reset.freeRemaining} granted`,
      });
    }
    return { ...balance, free_remaining: reset.freeRemaining, free_period_start: reset.freePeriodStart.getTime() };
  }

  async function addPurchased(
    accountId: string,
    credits: number,
    now: Date,
    kind: 'grant' | 'bundle_purchase',
    note: string,
    before?: (trx: Kysely<Database>) => Promise<void>,
  ): Promise<void> {
    await driver.write(
      async (trx) => {
        await lockBalance(trx, accountId);
        if (before) await before(trx);
        await trx
          .updateTable('balances')
          .set((eb) => ({
            purchased_remaining: eb('purchased_remaining', '+', credits),
            credits_purchased: eb('credits_purchased', '+', credits),
            updated_at: now.getTime(),
          }))
          .where('account_id', '=', accountId)
          .execute();
        await appendLedger(trx, { accountId, kind, free: 0, purchased: credits, now, note });
      },
      { retrySafe: false },
    );
  }

  /**
   * The charge's transaction: the account's balance locked, a retry of this very charge answered,
   * the Idempotency-Key settled, the weekly reset applied, the debit, then the pending query row,
   * the ledger entry and the key.
   */
  async function chargeIn(trx: Kysely<Database>, request: ChargeRequest): Promise<Result<{ readonly creditsRemaining: number }, ChargeFailure>> {
    // Locking the balance first serializes every charge of the account, idempotent or not.
    const locked = await lockBalance(trx, request.accountId);
    const retried = await retriedCharge(trx, request, locked);
    if (retried) return retried;
    const refused = await settleIdempotencyKey(trx, request);
    if (refused) return err(refused);
    const balance = await applyFreeReset(trx, locked, request.now);
    const debited = await debit(trx, request, balance);
    if (!debited.ok) return debited;
    await recordCharge(trx, request, debited.value.split);
    return ok({ creditsRemaining: debited.value.creditsRemaining });
  }

  /**
   * The refund's transaction: (crash recovery) claim the query while still pending, reverse its
   * charge once, then mark it failed.
   */
  async function refundIn(trx: Kysely<Database>, queryId: string, now: Date, reason: string, options: { readonly onlyIfPending?: boolean }): Promise<void> {
    if (options.onlyIfPending && !(await claimPending(trx, queryId, reason))) return;
    const query = await trx.selectFrom('queries').select(['account_id', 'credit_cost']).where('query_id', '=', queryId).executeTakeFirst();
    if (!query) return;
    // Lock first: concurrent refunds of one query serialize here, and the second finds the first's row.
    const balance = await lockBalance(trx, query.account_id);
    const entries = await trx
      .selectFrom('ledger_entries')
      .select(['kind', 'free_credits', 'purchased_credits', 'created_at'])
      .where('query_id', '=', queryId)
      .execute();
    const charge = entries.find((e) => e.kind === 'charge');
    const refunded = entries.some((e) => e.kind === 'refund');
    if (charge && !refunded) await reverseCharge(trx, { queryId, accountId: query.account_id, creditCost: query.credit_cost }, charge, await applyFreeReset(trx, balance, now), now, reason);
    await trx
      .updateTable('queries')
      .set({ status: 'failed', failure_reason: reason.slice(0, 500) })
      .where('query_id', '=', queryId)
      .where('status', '!=', 'failed')
      .execute();
  }

  return {
    async ledger({ accountId, page, perPage }) {
      const [rows, count] = await Promise.all([
        db
          .selectFrom('ledger_entries')
          .selectAll()
          .where('account_id', '=', accountId)
          .orderBy('created_at', 'desc')
          // Entries of one instant (a charge and the weekly reset it applied, in one transaction;
          // an account's opening allowance and a grant) in the order they happen, so a running
          // balance read down the list is right; entry ids are random.
          .orderBy(sql`case kind when 'refund' then 4 when 'charge' then 3 when 'free_allowance' then 1 else 2 end`, 'desc')
          .orderBy('entry_id', 'desc')
          .limit(perPage)
          .offset((page - 1) * perPage)
          .execute(),
        db.selectFrom('ledger_entries').select((eb) => eb.fn.countAll<number>().as('n')).where('account_id', '=', accountId).executeTakeFirstOrThrow(),
      ]);
      return {
        total: Number(count.n),
        items: rows.map((r) => ({
          entryId: r.entry_id,
          kind: r.kind,
          freeCredits: r.free_credits,
          purchasedCredits: r.purchased_credits,
          queryId: r.query_id,
          note: r.note,
          createdAt: toDate(r.created_at),
        })),
      };
    },

    async bundles(accountId) {
      const rows = await db.selectFrom('bundles').selectAll().where('account_id', '=', accountId).orderBy('created_at', 'desc').orderBy('bundle_id', 'desc').execute();
      return rows.map((r) => ({ bundleId: r.bundle_id, credits: r.credits, startsAt: toDate(r.starts_at), expiresAt: toDate(r.expires_at) }));
    },

    async grantCredits({ accountId, credits, now, note }) {
      assertCredits(credits, 1, 'credits');
      await addPurchased(accountId, credits, now, 'grant', note ?? 'granted by operator');
    },

    async addBundle({ accountId, credits, days, now }) {
      assertCredits(credits, 0, 'credits');
      if (!Number.isSafeInteger(days) || days < 1) throw new RangeError(`days must be an integer ≥ 1, got ${days}`);
      const bundleId = newId('bnd');
      await addPurchased(accountId, credits, now, 'bundle_purchase', `${bundleId}: ${credits} credits, ${days} days`, async (trx) => {
        await trx
          .insertInto('bundles')
          .values({
            bundle_id: bundleId,
            account_id: accountId,
            credits,
            starts_at: now.getTime(),
            expires_at: now.getTime() + days * DAY_MS,
            created_at: now.getTime(),
          })
          .execute();
      });
    },

    async credits(accountId, now): Promise<CreditSummary> {
      let balance = await db.selectFrom('balances').selectAll().where('account_id', '=', accountId).executeTakeFirst();
      if (!balance) throw new Error(`no balance row for account ${accountId}`);
      if (freeResetDue(toDate(balance.free_period_start), now)) {
        balance = await driver.write(async (trx) => applyFreeReset(trx, await lockBalance(trx, accountId), now), { retrySafe: true });
      }
      const tier = tierAt(await bundleWindows(db, accountId), now);
      const { free_remaining: free, purchased_remaining: purchased, credits_purchased: creditsPurchased, credits_used: creditsUsed } = balance;
      return creditSummary({ free, purchased, creditsPurchased, creditsUsed }, tier, now);
    },


    async charge(request: ChargeRequest) {
      assertCredits(request.credits, 0, 'credits');
      // Retry-safe: the query id makes a second attempt of a committed charge a no-op.
      return driver.write((trx) => chargeIn(trx, request), { retrySafe: true });
    },


    async refundQuery(queryId, now, reason, options = {}) {
      await driver.write((trx) => refundIn(trx, queryId, now, reason, options), { retrySafe: true });
    },


    async ledgerBalance(accountId) {
      const row = await db
        .selectFrom('ledger_entries')
        .select(sql<number | string | null>`sum(free_credits + purchased_credits)`.as('total'))
        .where('account_id', '=', accountId)
        .executeTakeFirst();
      return Number(row?.total ?? 0);
    },
  };
}

/** The account's balance row, held until the transaction ends (FOR UPDATE where the database needs it). */
export async function lockBalanceRow(trx: Kysely<Database>, accountId: string, rowLocks: boolean): Promise<Balance> {
  const query = trx.selectFrom('balances').selectAll().where('account_id', '=', accountId);
  const row = await (rowLocks ? query.forUpdate() : query).executeTakeFirst();
  if (!row) throw new Error(`no balance row for account ${accountId}`);
  return row;
}

/** This very charge committed already (a retried transaction, or a retry of an unknown outcome): the balance as it stands. */
async function retriedCharge(trx: Kysely<Database>, request: ChargeRequest, balance: Balance): Promise<Result<{ readonly creditsRemaining: number }, ChargeFailure> | undefined> {
  const { accountId, queryId } = request;
  const already = await trx.selectFrom('queries').selectAll().where('query_id', '=', queryId).executeTakeFirst();
  if (!already) return undefined;
  if (already.account_id !== accountId) throw new Error(`query id ${queryId} belongs to another account`);
  return ok({ creditsRemaining: balance.free_remaining + balance.purchased_remaining });
}

/**
 * An Idempotency-Key used within its lifetime: a different body, a first attempt still running, or
 * a completed one to replay refuse the charge. A key whose first attempt failed (and was refunded),
 * or that expired, is cleared so that this attempt runs afresh under it.
 */
async function settleIdempotencyKey(trx: Kysely<Database>, request: ChargeRequest): Promise<ChargeFailure | undefined> {
  const { accountId, now, idempotency } = request;
  if (!idempotency) return undefined;
  // Idempotency-Keys are stored hashed; rows written before that hold the key itself.
  const storedForms = [hashIdempotencyKey(idempotency.key), idempotency.key];
  const previous = await trx
    .selectFrom('idempotency_keys')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('idempotency_key', 'in', storedForms)
    .executeTakeFirst();
  if (previous && previous.created_at > now.getTime() - IDEMPOTENCY_TTL_MS) {
    if (previous.request_hash !== idempotency.requestHash) return { kind: 'idempotency_mismatch' };
    const first = await trx.selectFrom('queries').selectAll().where('query_id', '=', previous.query_id).executeTakeFirst();
    if (first?.status === 'pending') return { kind: 'idempotency_in_flight' };
    if (first?.status === 'completed') return { kind: 'idempotency_replay', query: toQueryRecord(first) };
    // The first attempt failed and was refunded: this one runs afresh under the same key.
  }
  if (previous) {
    await trx
      .deleteFrom('idempotency_keys')
      .where('account_id', '=', accountId)
      .where('idempotency_key', 'in', storedForms)
      .execute();
  }
  return undefined;
}

/** The debit: free allowance first, then purchased credits, in one conditional statement. */
async function debit(
  trx: Kysely<Database>,
  request: ChargeRequest,
  balance: Balance,
): Promise<Result<{ readonly split: ChargeSplit; readonly creditsRemaining: number }, ChargeFailure>> {
  const { accountId, credits, now } = request;
  const split = splitCharge(credits, balance.free_remaining);
  // Whatever the interleaving, no bucket goes below zero.
  const debited = await trx
    .updateTable('balances')
    .set((eb) => ({
      free_remaining: eb('free_remaining', '-', split.fromFree),
      purchased_remaining: eb('purchased_remaining', '-', split.fromPurchased),
      credits_used: eb('credits_used', '+', credits),
      updated_at: now.getTime(),
    }))
    .where('account_id', '=', accountId)
    .where('free_remaining', '>=', split.fromFree)
    .where('purchased_remaining', '>=', split.fromPurchased)
    .where(sql<boolean>`free_remaining + purchased_remaining >= ${credits}`)
    .returning(['free_remaining', 'purchased_remaining'])
    .executeTakeFirst();
  if (!debited) {
    return err({
      kind: 'insufficient_credits',
      required: credits,
      available: balance.free_remaining + balance.purchased_remaining,
    });
  }
  return ok({ split, creditsRemaining: debited.free_remaining + debited.purchased_remaining });
}

/** What a charge leaves besides the debit: the pending query row, the charge entry, the Idempotency-Key (hashed). */
async function recordCharge(trx: Kysely<Database>, request: ChargeRequest, split: ChargeSplit): Promise<void> {
  const { accountId, queryId, credits, now, query, idempotency } = request;
  await trx
    .insertInto('queries')
    .values({
      query_id: queryId,
      account_id: accountId,
      status: 'pending',
      executed_at: query.executedAt.getTime(),
      dataset_type: query.datasetType,
      geography_selections: JSON.stringify(query.geographySelections),
      n_observations: query.nObservations,
      credit_cost: credits,
      metadata: JSON.stringify(query.metadata),
      file_key: query.fileKey,
      download_expires: query.downloadExpires.getTime(),
      file_deleted_at: null,
      failure_reason: null,
      instance_id: request.instanceId ?? null,
      key_id: query.keyId ?? null,
    })
    .execute();
  await appendLedger(trx, { accountId, kind: 'charge', free: -split.fromFree, purchased: -split.fromPurchased, now, queryId });
  if (idempotency) {
    await trx
      .insertInto('idempotency_keys')
      .values({
        account_id: accountId,
        idempotency_key: hashIdempotencyKey(idempotency.key),
        request_hash: idempotency.requestHash,
        query_id: queryId,
        created_at: now.getTime(),
      })
      .execute();
  }
}

/**
 * Crash recovery's guard: the status change comes first, so a completion committed before it wins
 * (no row changes here), and one attempted after it finds the query no longer pending.
 */
async function claimPending(trx: Kysely<Database>, queryId: string, reason: string): Promise<boolean> {
  const claimed = await trx
    .updateTable('queries')
    .set({ status: 'failed', failure_reason: reason.slice(0, 500) })
    .where('query_id', '=', queryId)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return claimed.numUpdatedRows !== 0n;
}

/** Credits the charge back (to the free allowance only within the week it was charged in) and writes the refund entry. */
async function reverseCharge(
  trx: Kysely<Database>,
  query: { readonly queryId: string; readonly accountId: string; readonly creditCost: number },
  charge: { readonly free_credits: number; readonly purchased_credits: number; readonly created_at: number },
  balance: Balance,
  now: Date,
  reason: string,
): Promise<void> {
  const back = refundSplit(
    { fromFree: -charge.free_credits, fromPurchased: -charge.purchased_credits },
    currentFreePeriodStart(toDate(charge.created_at)),
    toDate(balance.free_period_start),
  );
  await trx
    .updateTable('balances')
    .set((eb) => ({
      free_remaining: eb('free_remaining', '+', back.fromFree),
      purchased_remaining: eb('purchased_remaining', '+', back.fromPurchased),
      credits_used: eb('credits_used', '-', query.creditCost),
      updated_at: now.getTime(),
    }))
    .where('account_id', '=', query.accountId)
    .execute();
  // The unique (query_id, kind) index is the last guard against a second refund.
  await appendLedger(trx, {
    accountId: query.accountId,
    kind: 'refund',
    free: back.fromFree,
    purchased: back.fromPurchased,
    now,
    queryId: query.queryId,
    note: reason.slice(0, 500),
  });
}

export async function appendLedger(
  trx: Kysely<Database>,
  entry: { accountId: string; kind: LedgerKind; free: number; purchased: number; now: Date; queryId?: string; note?: string },
): Promise<void> {
  await trx
    .insertInto('ledger_entries')
    .values({
      entry_id: newId('led'),
      account_id: entry.accountId,
      kind: entry.kind,
      free_credits: entry.free,
      purchased_credits: entry.purchased,
      query_id: entry.queryId ?? null,
      note: entry.note ?? null,
      created_at: entry.now.getTime(),
    })
    .execute();
}

/** A new account's balance row and first week's allowance, inside the transaction that creates the account. */
export async function openBalance(trx: Kysely<Database>, accountId: string, now: Date): Promise<void> {
  const allowance = weeklyAllowance('free');
  await trx
    .insertInto('balances')
    .values({
      account_id: accountId,
      free_remaining: allowance,
      purchased_remaining: 0,
      free_period_start: currentFreePeriodStart(now).getTime(),
      credits_purchased: 0,
      credits_used: 0,
      updated_at: now.getTime(),
    })
    .execute();
  await appendLedger(trx, { accountId, kind: 'free_allowance', free: allowance, purchased: 0, now, note: 'first week' });
}
