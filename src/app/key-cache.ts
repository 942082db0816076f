import type { ApiKeyRecord } from '../ports/credential-store.ts';
import type { RevocationListener } from '../ports/key-revocations.ts';

export interface KeyCacheOptions {
  /** A remembered key is read from the store again once it is this old (SPQ_KEY_RECHECK_MS). */
  readonly recheckMs: number;
  /** Most bytes the remembered keys may take (KEY_ENTRY_BYTES each at most); the longest-remembered is dropped first. 16 MiB by default. */
  readonly maxBytes?: number;
  /** Monotonic milliseconds (performance.now by default): the bound is real time, whatever the service clock says. */
  readonly now?: () => number;
}

interface Entry {
  /** The store's answer, or the read still under way (concurrent requests with one key share it). */
  readonly record: Promise<ApiKeyRecord | undefined>;
  /** When that read started: the record is at most now − atMs old. */
  readonly atMs: number;
  /** The record once the read has brought it, so a request can have it without waiting. */
  found?: ApiKeyRecord;
}

/**
 * What one remembered key can take at most: the key's hash (64 characters), a record of fixed-size
 * ids, dates and flags and a name of at most 60 characters (the key form's limit), the entry, its
 * promise and the Map's slot. So the cache's bytes are bounded by its number of entries.
 */
export const KEY_ENTRY_BYTES = 1024;

/** Key ids heard revoked are remembered up to this many; beyond it everything is forgotten at once. */
const MAX_HEARD = 10_000;

/**
 * This process's memory of API key look-ups, so an authenticated request costs no database read:
 * entries are keyed by the key's keyed hash (the plaintext key is never held) and hold the
 * store's record. A key is refused everywhere within `recheckMs` of its revocation whatever
 * happens, because an entry older than that is read again; a revocation announced through
 * KeyRevocations (this process, or a Redis channel on scale-out) takes effect on the next
 * request. Unknown keys are not remembered (a flood of made-up keys cannot evict real ones).
 */
export class KeyCache implements RevocationListener {
  readonly #entries = new Map<string, Entry>();
  /** Revoked key ids heard of: a read that was under way when the word came cannot bring one back. */
  readonly #heard = new Set<string>();
  readonly #recheckMs: number;
  readonly #maxEntries: number;
  readonly #now: () => number;

  constructor(
    private readonly load: (keyHash: string) => Promise<ApiKeyRecord | undefined>,
    options: KeyCacheOptions,
  ) {
    this.#recheckMs = options.recheckMs;
    this.#maxEntries = Math.max(1, Math.floor((options.maxBytes ?? 16 * 1024 * 1024) / KEY_ENTRY_BYTES));
    this.#now = options.now ?? (() => performance.now());
  }

  /**
   * find() without waiting: the record of a key whose read has come back within `recheckMs` (or
   * later if a revocation was heard); undefined when the answer needs the store (find() then).
   */
  remembered(keyHash: string): ApiKeyRecord | undefined {
    const entry = this.#entries.get(keyHash);
    if (entry?.found === undefined || !(this.#now() - entry.atMs < this.#recheckMs)) return undefined;
    return this.#withHeard(entry.found);
  }

  /** The key's record as the store held it at most `recheckMs` ago, or later if a revocation was heard. */
  async find(keyHash: string): Promise<ApiKeyRecord | undefined> {
    const now = this.#now();
    let entry = this.#entries.get(keyHash);
    if (entry === undefined || !(now - entry.atMs < this.#recheckMs)) {
      const read: Entry = { record: this.load(keyHash).then((found) => (found === undefined ? found : (read.found = found))), atMs: now };
      entry = read;
      this.#remember(keyHash, entry);
    }
    let record: ApiKeyRecord | undefined;
    try {
      record = await entry.record;
    } catch (error) {
      // A failed read is not remembered: the next request reads again.
      if (this.#entries.get(keyHash) === entry) this.#entries.delete(keyHash);
      throw error;
    }
    if (record === undefined) {
      if (this.#entries.get(keyHash) === entry) this.#entries.delete(keyHash);
      return undefined;
    }
    return this.#withHeard(record);
  }

  /** A record as read, marked revoked when its revocation was heard since. */
  #withHeard(record: ApiKeyRecord): ApiKeyRecord {
    return record.revokedAt === null && this.#heard.has(record.keyId) ? { ...record, revokedAt: new Date() } : record;
  }

  revoked(keyId: string): void {
    if (this.#heard.size >= MAX_HEARD) this.missed();
    this.#heard.add(keyId);
  }

  /** Revocations may have been missed: every key is read again on its next use. */
  missed(): void {
    this.#entries.clear();
    this.#heard.clear();
  }

  get size(): number {
    return this.#entries.size;
  }

  /**
   * Entries are kept in the order their reads started (a re-read moves one to the end), so the
   * expired ones, which would be read again anyway, are at the front: they go first, then the
   * oldest while the cache is full.
   */
  #remember(keyHash: string, entry: Entry): void {
    this.#entries.delete(keyHash);
    for (const [hash, held] of this.#entries) {
      if (entry.atMs - held.atMs < this.#recheckMs && this.#entries.size < this.#maxEntries) break;
      this.#entries.delete(hash);
    }
    this.#entries.set(keyHash, entry);
  }
}
