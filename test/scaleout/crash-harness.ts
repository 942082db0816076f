/**
 * Issue 12, item 5: the crash harness. Real `spq serve` processes under parallel load of
 * executes, each with an Idempotency-Key, are killed with SIGKILL at random moments (so at random
 * points of the executes in flight: before the charge, during the export, between upload and
 * completion, while the response is written) and started again, on both stacks:
 *
 *   embedded   one process on SQLite and local files, restarted after each kill
 *              (crash-embedded.test.ts);
 *   scale-out  two processes on PostgreSQL, Redis and S3 with a 5-second instance lease: a live
 *              one is killed and started again in the background while the load goes on (so at
 *              times both are down); a live one refunds a dead one's executes when its lease
 *              lapses (crash-scaleout.test.ts).
 *
 * Afterwards every Idempotency-Key is retried until it is answered, and the books must balance:
 * for each account the ledger equals the balance and the credits spent equal the cost of the
 * answered executes (none lost, none doubled: a key answered twice names one query), no query is
 * left pending, every completed query has its file, no stored file lacks a completed query, and
 * no partial file is left in any temp directory. SPQ_CRASH_KILLS sets the kills per stack (50),
 * SPQ_CRASH_SEED the seed of the random choices (kill moments, queries).
 */
import { randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import { createAccountWithKey } from '../../src/app/accounts.ts';
import type { AccountStore } from '../../src/ports/account-store.ts';
import { systemClock } from '../../src/ports/clock.ts';
import { sleep, type SpqProcess } from './stack.ts';

export const KILLS = Number(process.env.SPQ_CRASH_KILLS ?? 50);
const WORKERS_PER_INSTANCE = 4;
const CREDITS_PER_ACCOUNT = 5000;
export const LEASE_SECONDS = 5;
const SELECTIONS = ['Burnley', 'Fitzroy', 'Richmond (VIC)', 'Richmond (NSW)', 'Brisbane City'];
const FORMATS = ['csv', 'parquet', 'xlsx'] as const;

/** A small deterministic generator, so a failing run can be repeated (SPQ_CRASH_SEED). */
export const SEED = Number(process.env.SPQ_CRASH_SEED ?? 20261124);
export function generator(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Job {
  readonly idempotencyKey: string;
  readonly apiKey: string;
  readonly accountId: string;
  readonly body: Record<string, unknown>;
  queryId?: string;
  cost?: number;
  attempts: number;
  last?: string;
}

interface Books {
  readonly jobs: Job[];
  readonly statuses: Map<string, number>;
  /** Answers other than 200, 409, 429 and 503 (another 5xx from a live server, a refused query): none are expected. */
  readonly serverErrors: string[];
}

/** One attempt of a job against one instance; records the outcome in the job and the books. */
async function attempt(books: Books, job: Job, instance: SpqProcess): Promise<void> {
  job.attempts++;
  let res: Response;
  try {
    res = await instance.call('/query/execute', { key: job.apiKey, body: job.body, headers: { 'Idempotency-Key': job.idempotencyKey }, timeoutMs: 20_000 });
  } catch {
    books.statuses.set('connection', (books.statuses.get('connection') ?? 0) + 1);
    return; // the process died under it: the job stays unanswered and is retried
  }
  const text = await res.text().catch(() => '');
  books.statuses.set(String(res.status), (books.statuses.get(String(res.status)) ?? 0) + 1);
  job.last = `${res.status} ${text.slice(0, 200)}`;
  // 503: an instance that stalled past its lease found its query refunded by another (the client
  // retries, as for 409); any other 5xx is a fault.
  if (res.status >= 500 && res.status !== 503) {
    // The instance's own account of it, for the failure message.
    const requestId = res.headers.get('x-request-id') ?? '?';
    await sleep(200); // the instance's log line may follow its answer
    const logged = instance.lines.filter((l) => l.includes(requestId) && !l.includes('"msg":"request"')).map((l) => l.slice(0, 1500));
    books.serverErrors.push(`${res.status} ${text.slice(0, 300)} log: ${logged.join(' | ')}`);
    return;
  }
  // 429: the instance has more executes queued for the account than it can start within its wait
  // (backpressure under load): nothing was run or charged, and the client retries.
  if (res.status !== 200 && res.status !== 409 && res.status !== 429 && res.status !== 503) books.serverErrors.push(`unexpected ${res.status} ${text.slice(0, 300)}`);
  if (res.status !== 200) return; // 409: its first attempt is still pending (or awaits recovery)
  const body = JSON.parse(text) as { query_id: string; credit_cost: number };
  if (job.queryId !== undefined && job.queryId !== body.query_id) {
    throw new Error(`Idempotency-Key ${job.idempotencyKey} answered with two queries: ${job.queryId} and ${body.query_id}`);
  }
  job.queryId = body.query_id;
  job.cost = body.credit_cost;
}

export interface StackUnderTest {
  readonly name: string;
  /** Instances the load is spread over; `restart(i)` replaces instance i after it was killed. */
  instances: SpqProcess[];
  restart(index: number): Promise<void>;
  readonly store: AccountStore;
  readonly accounts: { accountId: string; apiKey: string; initialCredits: number }[];
  listStoredFiles(): Promise<string[]>;
  readonly tmpDirs: string[];
  close(): Promise<void>;
}

export async function runHarness(stack: StackUnderTest, random: () => number): Promise<{ jobs: number; kills: number; statuses: Record<string, number> }> {
  const books: Books = { jobs: [], statuses: new Map(), serverErrors: [] };
  let counter = 0;
  const newJob = (): Job => {
    const account = stack.accounts[Math.floor(random() * stack.accounts.length)]!;
    const job: Job = {
      idempotencyKey: `crash-${stack.name}-${++counter}-${randomBytes(4).toString('hex')}`,
      apiKey: account.apiKey,
      accountId: account.accountId,
      body: {
        geography_level: 'suburb',
        geography_selections: [SELECTIONS[Math.floor(random() * SELECTIONS.length)]!],
        dataset_type: random() < 0.7 ? 'persons' : 'dwellings',
        n_observations: 1 + Math.floor(random() * 40),
        output_format: FORMATS[Math.floor(random() * FORMATS.length)]!,
      },
      attempts: 0,
    };
    books.jobs.push(job);
    return job;
  };
  const unanswered = () => books.jobs.filter((j) => j.queryId === undefined);

  // The load runs throughout; a killed instance starts again in the background, and the next kill
  // may come before it is back (with two instances: one serving, or for a moment none).
  const restarting = new Map<number, Promise<void>>();
  const ready = () => stack.instances.map((p, i) => ({ p, i })).filter(({ p, i }) => !restarting.has(i) && p.exitCode() === null);
  let stop = false;
  const worker = async (w: number) => {
    while (!stop) {
      const live = ready();
      if (live.length === 0) {
        await sleep(50);
        continue;
      }
      const waiting = unanswered();
      const job = waiting.length > 0 && random() < 0.3 ? waiting[Math.floor(random() * waiting.length)]! : newJob();
      await attempt(books, job, live[w % live.length]!.p);
    }
  };
  const workers = Array.from({ length: WORKERS_PER_INSTANCE * stack.instances.length }, (_, w) => worker(w));
  for (let kill = 0; kill < KILLS; kill++) {
    if (ready().length === 0) await Promise.race(restarting.values());
    await sleep(50 + random() * 650);
    const live = ready();
    const { p: dying, i: victim } = live[Math.floor(random() * live.length)]!;
    const exited = new Promise<void>((resolve) => (dying.exitCode() !== null ? resolve() : dying.child.once('exit', () => resolve())));
    dying.child.kill('SIGKILL');
    await exited;
    restarting.set(
      victim,
      stack.restart(victim).finally(() => restarting.delete(victim)),
    );
  }
  await Promise.all(restarting.values());
  stop = true;
  await Promise.all(workers);

  // Every key retried until answered: a refunded execute runs afresh, a completed one replays.
  const deadline = Date.now() + 60_000 + LEASE_SECONDS * 1000;
  while (unanswered().length > 0 && Date.now() < deadline) {
    const batch = unanswered();
    await Promise.all(batch.map((job, i) => attempt(books, job, stack.instances[i % stack.instances.length]!)));
    if (unanswered().length > 0) await sleep(250);
  }
  expect(unanswered().map((j) => `${j.idempotencyKey} (${j.attempts} attempts, last: ${j.last ?? 'no answer'}; ${JSON.stringify(j.body)})`)).toEqual([]);
  expect(books.serverErrors).toEqual([]);

  // Past two leases, the live instances have refunded the last dead one's executes, deleted the
  // files of refunded queries (collectFailedFiles waits one lease) and its partial temp files.
  if (stack.instances.length > 1) await sleep(2 * LEASE_SECONDS * 1000 + 2000);
  // A dead instance's temp directory goes at the next lease renewal after its lease lapsed; on a
  // loaded machine that renewal can come a few seconds late, so wait for it (bounded) before checking.
  const sweptBy = Date.now() + 4 * LEASE_SECONDS * 1000;
  while (Date.now() < sweptBy && (await Promise.all(stack.tmpDirs.map(filesUnder))).some((files) => files.length > 0)) await sleep(250);
  // Graceful stops, so nothing is in flight while the books are read.
  for (const p of stack.instances) await p.stop();

  const now = new Date();
  const answered = new Set(books.jobs.map((j) => j.queryId!));
  const completed = new Set<string>();
  for (const { accountId, initialCredits } of stack.accounts) {
    const summary = await stack.store.credits(accountId, now);
    expect(await stack.store.ledgerBalance(accountId), `ledger = balance of ${accountId}`).toBe(summary.creditsRemaining);
    const spent = books.jobs.filter((j) => j.accountId === accountId).reduce((sum, j) => sum + j.cost!, 0);
    expect(initialCredits - summary.creditsRemaining, `credits spent by ${accountId}`).toBe(spent);
    for (let page = 1; ; page++) {
      const { items } = await stack.store.history({ accountId, page, perPage: 100 });
      for (const q of items) completed.add(q.queryId);
      if (items.length < 100) break;
    }
  }
  expect([...completed].sort()).toEqual([...answered].sort());
  expect(await stack.store.pendingQueriesBefore(new Date(now.getTime() + 86_400_000))).toEqual([]);

  const stored = await stack.listStoredFiles();
  const storedQueries = new Set(stored.map((key) => /qry_[0-9A-Za-z]{20}/.exec(key)?.[0]));
  for (const id of completed) expect(storedQueries.has(id), `file of ${id}`).toBe(true);
  for (const id of storedQueries) expect(id !== undefined && completed.has(id), `stored file of ${String(id)} has a completed query (${stored.filter((key) => id === undefined || key.includes(id)).join(', ')})`).toBe(true);
  for (const dir of stack.tmpDirs) expect(await filesUnder(dir), `partial files in ${dir}`).toEqual([]);

  return { jobs: books.jobs.length, kills: KILLS, statuses: Object.fromEntries(books.statuses) };
}

export async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

export async function paidAccounts(store: AccountStore, secret: string, count: number) {
  await store.migrate();
  const made: StackUnderTest['accounts'] = [];
  for (let i = 0; i < count; i++) {
    const created = await createAccountWithKey(
      { store, serverSecret: secret, clock: systemClock },
      { email: `crash-${i}-${randomBytes(3).toString('hex')}@example.org`, tier: 'paid', bundle: { credits: CREDITS_PER_ACCOUNT, days: 30 } },
    );
    if (!created.ok) throw new Error(created.error.detail);
    const { accountId } = created.value.account;
    // The bundle's credits, and the free week's 5 the account got when it was made.
    made.push({ accountId, apiKey: created.value.apiKey, initialCredits: (await store.credits(accountId, new Date())).creditsRemaining });
  }
  return made;
}

export const LIMITS = { SPQ_RATE_PER_MINUTE: '1000000', SPQ_RATE_PAID_PER_HOUR: '1000000', SPQ_RATE_FREE_PER_HOUR: '1000000', SPQ_RATE_FAILED_AUTH_PER_MINUTE: '1000000' };

