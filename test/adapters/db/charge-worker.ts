/**
 * Helper process for sqlite-processes.test.ts: charges 1 credit `count` times concurrently on a
 * SQLite file that another process is charging at the same time, and prints what happened.
 * Usage: node bin/run-ts.js test/adapters/db/charge-worker.ts FILE ACCOUNT_ID COUNT NOW_ISO
 */
import { newId } from '../../../src/core/keys.ts';
import { createSqliteAccountStore } from '../../../src/adapters/db/sqlite.ts';

const [file, accountId, count, nowIso] = process.argv.slice(2);
if (!file || !accountId || !count || !nowIso) throw new Error('usage: charge-worker FILE ACCOUNT_ID COUNT NOW_ISO');
const now = new Date(nowIso);
const store = createSqliteAccountStore({ file });
// Wait for the go signal on stdin so both processes start charging together.
await new Promise((resolve) => process.stdin.once('data', resolve));
const results = await Promise.all(
  Array.from({ length: Number(count) }, () =>
    store.charge({
      accountId,
      queryId: newId('qry'),
      credits: 1,
      now,
      query: { executedAt: now, datasetType: 'persons', geographySelections: ['Australia'], nObservations: 1, metadata: {}, fileKey: null, downloadExpires: now },
    }),
  ),
);
await store.close();
process.stdout.write(JSON.stringify({ ok: results.filter((r) => r.ok).length, refused: results.filter((r) => !r.ok).length }));
process.stdin.destroy();
