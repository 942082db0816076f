import { hashIdempotencyKey, IDEMPOTENCY_TTL_MS } from '../../src/adapters/db/kysely-account-store.ts';
import { newId } from '../../src/core/keys.ts';
import { memorySignInRecords } from './credential-store.ts';
import { creditSummary, freeReset, freeResetDue, refundSplit, splitCharge, tierAt, weeklyAllowance } from '../../src/core/ledger/rules.ts';
import { currentFreePeriodStart } from '../../src/core/ledger/weekly-reset.ts';
import { err, ok } from '../../src/core/result.ts';
import type { Account, AccountStore, ApiKeyRecord, QueryRecord } from '../../src/ports/account-store.ts';

interface Balance {
  freeRemaining: number;
  purchasedRemaining: number;
  freePeriodStart: Date;
  creditsPurchased: number;
  creditsUsed: number;
}

interface LedgerEntry {
  readonly entryId: string;
  readonly note: string | null;
  readonly accountId: string;
  readonly kind: 'grant' | 'bundle_purchase' | 'free_allowance' | 'charge' | 'refund';
  readonly free: number;
  readonly purchased: number;
  readonly queryId: string | null;
  readonly at: Date;
}

type StoredQuery = { -readonly [K in keyof QueryRecord]: QueryRecord[K] } & { instanceId: string | null };

/** What one database holds: several store instances opened on it share it (as two processes share a file). */
export interface MemoryDatabase {
  readonly accounts: Map<string, Account>;
  readonly keys: Map<string, ApiKeyRecord & { keyHash: string }>;
  readonly balances: Map<string, Balance>;
  readonly bundles: { bundleId: string; credits: number; accountId: string; startsAt: Date; expiresAt: Date }[];
  readonly ledger: LedgerEntry[];
  readonly queries: Map<string, StoredQuery>;
  /** account id + stored (hashed) key → the request and query it ran. */
  readonly idempotency: Map<string, { requestHash: string; queryId: string; createdAt: Date }>;
  readonly leases: Map<string, Date>;
}

export const newMemoryDatabase = (): MemoryDatabase => ({
  accounts: new Map(),
  keys: new Map(),
  balances: new Map(),
  bundles: [],
  ledger: [],
  queries: new Map(),
  idempotency: new Map(),
  leases: new Map(),
});

const DAY_MS = 86_400_000;

function assertCredits(credits: number, min: number, what: string): void {
  if (!Number.isSafeInteger(credits) || credits < min) throw new RangeError(`${what} must be an integer ≥ ${min}, got ${credits}`);
}

const copy = (q: StoredQuery): QueryRecord => {
  const { instanceId: _instance, ...record } = q;
  return { ...record, geographySelections: [...q.geographySelections], metadata: structuredClone(q.metadata) };
};

/**
 * An AccountStore in memory, for unit tests that must not touch a database. Every method does its
 * reads and writes without awaiting in between, so each is atomic as a transaction is; the ledger
 * rules are the core's (src/core/ledger), as in the SQL stores. It passes the AccountStore
 * contract suite (test/adapters/db/memory.test.ts).
 */
export function memoryAccountStore(db: MemoryDatabase = newMemoryDatabase()): AccountStore {
  const balanceOf = (accountId: string): Balance => {
    const b = db.balances.get(accountId);
    if (!b) throw new Error(`no balance row for account ${accountId}`);
    return b;
  };
  const append = (entry: Omit<LedgerEntry, 'queryId' | 'entryId' | 'note'> & { queryId?: string; note?: string }) =>
    // + 0: a stored integer column has no negative zero.
    db.ledger.push({ ...entry, free: entry.free + 0, purchased: entry.purchased + 0, entryId: newId('led'), queryId: entry.queryId ?? null, note: entry.note ?? null });
  const bundlesOf = (accountId: string) => db.bundles.filter((b) => b.accountId === accountId);

  /** The lazy weekly reset (the caller holds the "lock": no await until it is done). */
  const applyFreeReset = (accountId: string, now: Date): Balance => {
    const b = balanceOf(accountId);
    const reset = freeReset({ freeRemaining: b.freeRemaining, freePeriodStart: b.freePeriodStart }, now, (start) => tierAt(bundlesOf(accountId), start));
    if (!reset) return b;
    b.freeRemaining = reset.freeRemaining;
    b.freePeriodStart = reset.freePeriodStart;
    if (reset.delta !== 0) append({ accountId, kind: 'free_allowance', free: reset.delta, purchased: 0, at: now });
    return b;
  };

  const addPurchased = (accountId: string, credits: number, now: Date, kind: 'grant' | 'bundle_purchase', note?: string) => {
    const b = balanceOf(accountId);
    b.purchasedRemaining += credits;
    b.creditsPurchased += credits;
    append({ accountId, kind, free: 0, purchased: credits, at: now, ...(note !== undefined ? { note } : {}) });
  };

  return {
    ...memorySignInRecords(),
    async migrate() {},
    async close() {},
    async healthy() {
      return true;
    },

    async createAccount({ email, now }) {
      if ([...db.accounts.values()].some((a) => a.email === email)) throw new Error(`UNIQUE constraint failed: accounts.email (${email})`);
      const account: Account = { accountId: newId('acc'), email, createdAt: now };
      db.accounts.set(account.accountId, account);
      const allowance = weeklyAllowance('free');
      db.balances.set(account.accountId, { freeRemaining: allowance, purchasedRemaining: 0, freePeriodStart: currentFreePeriodStart(now), creditsPurchased: 0, creditsUsed: 0 });
      append({ accountId: account.accountId, kind: 'free_allowance', free: allowance, purchased: 0, at: now });
      return account;
    },
    async getAccount(accountId) {
      return db.accounts.get(accountId);
    },
    async listAccounts() {
      return [...db.accounts.values()].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.accountId.localeCompare(b.accountId));
    },

    async addKey({ accountId, keyId, keyHash, prefix, last4, now, name }) {
      if ([...db.keys.values()].some((k) => k.keyHash === keyHash)) throw new Error('UNIQUE constraint failed: api_keys.key_hash');
      const record = { keyId, accountId, prefix, last4, createdAt: now, revokedAt: null, name: name ?? null, lastUsedAt: null };
      db.keys.set(keyId, { ...record, keyHash });
      return record;
    },
    async findKeyByHash(keyHash) {
      const found = [...db.keys.values()].find((k) => k.keyHash === keyHash);
      if (!found) return undefined;
      const { keyHash: _hash, ...record } = found;
      return record;
    },
    async listKeys(accountId) {
      return [...db.keys.values()]
        .filter((k) => k.accountId === accountId)
        .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.keyId.localeCompare(b.keyId))
        .map(({ keyHash: _hash, ...record }) => record);
    },
    async revokeKey(keyId, now) {
      const key = db.keys.get(keyId);
      if (!key || key.revokedAt !== null) return false;
      db.keys.set(keyId, { ...key, revokedAt: now });
      return true;
    },

    async recordKeyUse(keyId, now) {
      const key = db.keys.get(keyId);
      if (key && (key.lastUsedAt === null || key.lastUsedAt.getTime() <= now.getTime() - 60_000)) db.keys.set(keyId, { ...key, lastUsedAt: now });
    },
    async findAccountByEmail(email) {
      return [...db.accounts.values()].find((a) => a.email === email);
    },
    async ledger({ accountId, page, perPage }) {
      // Insertion order is time order here; newest first, as the SQL stores sort by time.
      const mine = db.ledger.filter((e) => e.accountId === accountId).reverse();
      const items = mine.slice((page - 1) * perPage, page * perPage).map((e) => ({
        entryId: e.entryId,
        kind: e.kind,
        freeCredits: e.free,
        purchasedCredits: e.purchased,
        queryId: e.queryId,
        note: e.note,
        createdAt: e.at,
      }));
      return { items, total: mine.length };
    },
    async bundles(accountId) {
      return bundlesOf(accountId)
        .reverse()
        .map(({ bundleId, credits, startsAt, expiresAt }) => ({ bundleId, credits, startsAt, expiresAt }));
    },

    async grantCredits({ accountId, credits, now, note }) {
      assertCredits(credits, 1, 'credits');
      addPurchased(accountId, credits, now, 'grant', note ?? 'granted by operator');
    },
    async addBundle({ accountId, credits, days, now }) {
      assertCredits(credits, 0, 'credits');
      if (!Number.isSafeInteger(days) || days < 1) throw new RangeError(`days must be an integer ≥ 1, got ${days}`);
      balanceOf(accountId);
      db.bundles.push({ bundleId: newId('bnd'), credits, accountId, startsAt: now, expiresAt: new Date(now.getTime() + days * DAY_MS) });
      addPurchased(accountId, credits, now, 'bundle_purchase');
    },
    async credits(accountId, now) {
      const b = freeResetDue(balanceOf(accountId).freePeriodStart, now) ? applyFreeReset(accountId, now) : balanceOf(accountId);
      return creditSummary({ free: b.freeRemaining, purchased: b.purchasedRemaining, creditsPurchased: b.creditsPurchased, creditsUsed: b.creditsUsed }, tierAt(bundlesOf(accountId), now), now);
    },

    async charge({ accountId, queryId, credits, now, query, idempotency, instanceId }) {
      assertCredits(credits, 0, 'credits');
      let b = balanceOf(accountId);
      const already = db.queries.get(queryId);
      if (already) {
        if (already.accountId !== accountId) throw new Error(`query id ${queryId} belongs to another account`);
        return ok({ creditsRemaining: b.freeRemaining + b.purchasedRemaining });
      }
      const slot = idempotency ? `${accountId} ${hashIdempotencyKey(idempotency.key)}` : '';
      if (idempotency) {
        const previous = db.idempotency.get(slot);
        if (previous && previous.createdAt.getTime() > now.getTime() - IDEMPOTENCY_TTL_MS) {
          if (previous.requestHash !== idempotency.requestHash) return err({ kind: 'idempotency_mismatch' as const });
          const first = db.queries.get(previous.queryId);
          if (first?.status === 'pending') return err({ kind: 'idempotency_in_flight' as const });
          if (first?.status === 'completed') return err({ kind: 'idempotency_replay' as const, query: copy(first) });
        }
        db.idempotency.delete(slot);
      }
      b = applyFreeReset(accountId, now);
      const split = splitCharge(credits, b.freeRemaining);
      if (b.freeRemaining < split.fromFree || b.purchasedRemaining < split.fromPurchased || b.freeRemaining + b.purchasedRemaining < credits) {
        return err({ kind: 'insufficient_credits' as const, required: credits, available: b.freeRemaining + b.purchasedRemaining });
      }
      b.freeRemaining -= split.fromFree;
      b.purchasedRemaining -= split.fromPurchased;
      b.creditsUsed += credits;
      db.queries.set(queryId, {
        queryId,
        accountId,
        status: 'pending',
        executedAt: query.executedAt,
        datasetType: query.datasetType,
        geographySelections: [...query.geographySelections],
        nObservations: query.nObservations,
        creditCost: credits,
        metadata: structuredClone(query.metadata),
        fileKey: query.fileKey,
        downloadExpires: query.downloadExpires,
        fileDeletedAt: null,
        instanceId: instanceId ?? null,
        keyId: query.keyId ?? null,
      });
      append({ accountId, kind: 'charge', free: -split.fromFree, purchased: -split.fromPurchased, at: now, queryId });
      if (idempotency) db.idempotency.set(slot, { requestHash: idempotency.requestHash, queryId, createdAt: now });
      return ok({ creditsRemaining: b.freeRemaining + b.purchasedRemaining });
    },

    async completeQuery(queryId, fileKey) {
      const q = db.queries.get(queryId);
      if (q?.status === 'pending') {
        q.status = 'completed';
        q.fileKey = fileKey;
        return true;
      }
      return q?.status === 'completed' && q.fileKey === fileKey;
    },

    async refundQuery(queryId, now, _reason, options = {}) {
      const q = db.queries.get(queryId);
      if (!q) return;
      if (options.onlyIfPending && q.status !== 'pending') return;
      const entries = db.ledger.filter((e) => e.queryId === queryId);
      const charge = entries.find((e) => e.kind === 'charge');
      if (charge && !entries.some((e) => e.kind === 'refund')) {
        const b = applyFreeReset(q.accountId, now);
        const back = refundSplit({ fromFree: -charge.free, fromPurchased: -charge.purchased }, currentFreePeriodStart(charge.at), b.freePeriodStart);
        b.freeRemaining += back.fromFree;
        b.purchasedRemaining += back.fromPurchased;
        b.creditsUsed -= q.creditCost;
        append({ accountId: q.accountId, kind: 'refund', free: back.fromFree, purchased: back.fromPurchased, at: now, queryId });
      }
      q.status = 'failed';
    },

    async pendingQueriesBefore(olderThan) {
      return [...db.queries.values()]
        .filter((q) => q.status === 'pending' && q.executedAt.getTime() < olderThan.getTime())
        .sort((a, b) => a.executedAt.getTime() - b.executedAt.getTime())
        .map(copy);
    },
    async renewInstanceLease({ instanceId, until }) {
      db.leases.set(instanceId, until);
    },
    async liveInstances(now) {
      return [...db.leases].filter(([, until]) => until.getTime() >= now.getTime()).map(([id]) => id);
    },
    async releaseInstanceLease(instanceId) {
      db.leases.delete(instanceId);
    },
    async pendingQueriesOfLapsedInstances(now) {
      return [...db.queries.values()]
        .filter((q) => q.status === 'pending' && q.instanceId !== null)
        .filter((q) => {
          const until = db.leases.get(q.instanceId!);
          return until === undefined || until.getTime() < now.getTime();
        })
        .sort((a, b) => a.executedAt.getTime() - b.executedAt.getTime())
        .map(copy);
    },

    async getQuery(accountId, queryId) {
      const q = db.queries.get(queryId);
      return q && q.accountId === accountId ? copy(q) : undefined;
    },
    async history({ accountId, page, perPage, datasetType }) {
      if (!Number.isSafeInteger(page) || page < 1) throw new RangeError('page must be an integer ≥ 1');
      if (!Number.isSafeInteger(perPage) || perPage < 1) throw new RangeError('perPage must be an integer ≥ 1');
      const all = [...db.queries.values()]
        .filter((q) => q.accountId === accountId && q.status === 'completed' && (datasetType === undefined || q.datasetType === datasetType))
        .sort((a, b) => b.executedAt.getTime() - a.executedAt.getTime() || (a.queryId < b.queryId ? 1 : a.queryId > b.queryId ? -1 : 0));
      return { items: all.slice((page - 1) * perPage, page * perPage).map(copy), total: all.length };
    },
    async usageSince({ accountId, since, limit }) {
      return [...db.queries.values()]
        .filter((q) => q.accountId === accountId && q.status === 'completed' && q.executedAt.getTime() >= since.getTime())
        .sort((a, b) => b.executedAt.getTime() - a.executedAt.getTime() || (a.queryId < b.queryId ? 1 : a.queryId > b.queryId ? -1 : 0))
        .slice(0, limit)
        .map((q) => ({ queryId: q.queryId, executedAt: q.executedAt, keyId: q.keyId ?? null, nObservations: q.nObservations, places: q.geographySelections.length, creditCost: q.creditCost, testData: q.metadata['test_data'] === true }));
    },
    async expiredFiles(before, limit) {
      return [...db.queries.values()]
        .filter((q) => q.status === 'completed' && q.fileKey !== null && q.fileDeletedAt === null && q.downloadExpires.getTime() < before.getTime())
        .sort((a, b) => a.downloadExpires.getTime() - b.downloadExpires.getTime())
        .slice(0, limit)
        .map(copy);
    },
    async failedQueriesWithFiles(before, limit) {
      return [...db.queries.values()]
        .filter((q) => q.status === 'failed' && q.fileDeletedAt === null && q.executedAt.getTime() < before.getTime())
        .sort((a, b) => a.executedAt.getTime() - b.executedAt.getTime())
        .slice(0, limit)
        .map(copy);
    },
    async markFileDeleted(queryId, now) {
      const q = db.queries.get(queryId);
      if (q && q.fileDeletedAt === null) q.fileDeletedAt = now;
    },
    async ledgerBalance(accountId) {
      return db.ledger.filter((e) => e.accountId === accountId).reduce((sum, e) => sum + e.free + e.purchased, 0);
    },
  };
}
