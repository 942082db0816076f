import type { KeyRevocations, RevocationListener } from '../ports/key-revocations.ts';

/**
 * Revocation word within one process: the embedded stack, where the serving process is the only
 * one holding keys in memory (a revocation from another process, such as `spq admin key revoke`
 * on SQLite, reaches it through the key cache's recheck instead).
 */
export class InProcessRevocations implements KeyRevocations {
  readonly #listeners = new Set<RevocationListener>();

  async announce(keyId: string): Promise<void> {
    for (const l of this.#listeners) l.revoked(keyId);
  }

  listen(listener: RevocationListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async close(): Promise<void> {
    this.#listeners.clear();
  }
}
