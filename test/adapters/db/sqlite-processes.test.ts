import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { createSqliteAccountStore } from '../../../src/adapters/db/sqlite.ts';
import { newId } from '../../../src/core/keys.ts';

const dir = mkdtempSync(join(tmpdir(), 'spq-sqlite-proc-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Two processes (this one and a child) charging one SQLite file at once: the write lock, not luck, keeps the count exact. */
it('two processes charging one SQLite file concurrently: exactly 37 of 200 succeed', async () => {
  const file = join(dir, 'spq.sqlite');
  const now = new Date('2026-11-25T03:00:00Z');
  const store = createSqliteAccountStore({ file });
  await store.migrate();
  const account = await store.createAccount({ email: 'procs@example.org', now });
  await store.grantCredits({ accountId: account.accountId, credits: 32, now });

  const child = spawn(process.execPath, ['bin/run-ts.js', 'test/adapters/db/charge-worker.ts', file, account.accountId, '100', now.toISOString()], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  // Give the child time to load, then start both sides together.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  child.stdin.write('go\n');
  const mine = await Promise.all(
    Array.from({ length: 100 }, () =>
      store.charge({
        accountId: account.accountId,
        queryId: newId('qry'),
        credits: 1,
        now,
        query: { executedAt: now, datasetType: 'persons', geographySelections: ['Australia'], nObservations: 1, metadata: {}, fileKey: null, downloadExpires: now },
      }),
    ),
  );
  expect(await exited).toBe(0);
  const theirs = JSON.parse(output) as { ok: number; refused: number };
  const myOk = mine.filter((r) => r.ok).length;
  expect(myOk + theirs.ok).toBe(37);
  expect(mine.length - myOk + theirs.refused).toBe(163);
  const summary = await store.credits(account.accountId, now);
  expect(summary.creditsRemaining).toBe(0);
  expect(await store.ledgerBalance(account.accountId)).toBe(0);
  await store.close();
}, 30_000);
