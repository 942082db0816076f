/**
 * What the database ports' contract suites share (credential-store.contract.ts, ledger.contract.ts,
 * query-log.contract.ts, run together by account-store.contract.ts): the harness an adapter's test
 * hands them, a fixed moment, the charge request they build, and one fresh database per suite.
 */
import { afterAll, beforeAll, expect } from 'vitest';
import { newId } from '../../src/core/keys.ts';
import type { DatasetType } from '../../src/core/dataset.ts';
import type { Account, AccountStore, ChargeRequest, CreditSummary } from '../../src/ports/account-store.ts';

export interface StoreHarness {
  /** Creates a fresh, empty database and returns a function that opens a store instance on it. */
  newDatabase(): Promise<() => AccountStore>;
  /** The idempotency_keys.idempotency_key column of every database it made, as stored (read past the store). */
  storedIdempotencyKeys(): Promise<string[]>;
}

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;
/** Wednesday 25 Nov 2026, 14:00 in Sydney: mid-week, so a few days either way stay in the week. */
export const NOW = new Date('2026-11-25T03:00:00Z');
export const at = (offsetMs: number) => new Date(NOW.getTime() + offsetMs);
export const SECRET = 'contract-test-secret';

let emailCounter = 0;
export const uniqueEmail = () => `user${++emailCounter}-${Math.random().toString(36).slice(2, 8)}@example.org`;

export function chargeRequest(accountId: string, credits: number, now: Date, extra: Partial<ChargeRequest> = {}, datasetType: DatasetType = 'persons'): ChargeRequest {
  return {
    accountId,
    queryId: newId('qry'),
    credits,
    now,
    query: {
      executedAt: now,
      datasetType,
      geographySelections: ['Richmond (VIC)', '3121'],
      nObservations: credits * 500,
      metadata: { seed: 'c0ffee', geography_level: 'suburb', nested: { a: [1, 2] } },
      fileKey: null,
      downloadExpires: new Date(now.getTime() + 7 * DAY),
    },
    ...extra,
  };
}

export interface SuiteDatabase {
  /**
   * The suite's store, migrated by its beforeAll. Taken at describe time, before that hook has
   * opened it: every call goes to the store opened then.
   */
  readonly store: AccountStore;
  /** Another store instance on the suite's database. */
  another(): AccountStore;
  /** A store to close when the suite ends. */
  track(store: AccountStore): AccountStore;
  newAccount(now?: Date): Promise<Account>;
  /** The ledger and the stored balance agree (the invariant every test ends with). */
  expectConsistent(accountId: string, now?: Date): Promise<CreditSummary>;
}

/** Each port's suite runs on a database of its own: call inside its describe (it registers the hooks). */
export function suiteDatabase(harness: StoreHarness): SuiteDatabase {
  let open: () => AccountStore;
  let store: AccountStore;
  const opened: AccountStore[] = [];
  const track = (s: AccountStore) => (opened.push(s), s);
  beforeAll(async () => {
    open = await harness.newDatabase();
    store = track(open());
    await store.migrate();
  });
  afterAll(async () => {
    await Promise.all(opened.map((s) => s.close()));
  });
  return {
    store: new Proxy({} as AccountStore, {
      get: (_, key) => {
        const value: unknown = Reflect.get(store, key);
        return typeof value === 'function' ? value.bind(store) : value;
      },
    }),
    another: () => track(open()),
    track,
    newAccount: (now = NOW) => store.createAccount({ email: uniqueEmail(), now }),
    async expectConsistent(accountId, now = NOW) {
      const summary = await store.credits(accountId, now);
      expect(await store.ledgerBalance(accountId)).toBe(summary.creditsRemaining);
      expect(summary.creditsRemaining).toBeGreaterThanOrEqual(0);
      expect(summary.freeCreditsRemaining).toBeGreaterThanOrEqual(0);
      return summary;
    },
  };
}
