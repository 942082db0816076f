/**
 * Word that an API key was revoked, to every instance serving the API, so that each drops the key
 * from its memory of key look-ups (src/app/key-cache.ts) at once instead of at its next recheck.
 * Embedded: the process itself. Scale-out: a Redis channel. Delivery is best effort: a
 * subscriber that may have missed announcements (its connection dropped) is told so, and the
 * cache's bounded recheck interval covers whatever is lost.
 */
export interface RevocationListener {
  /** This key was revoked (the store has committed it). */
  revoked(keyId: string): void;
  /** Announcements may have been lost (the channel was down): forget every key. */
  missed(): void;
}

export interface KeyRevocations {
  /** Tells every instance, this one included (listeners here hear it before this resolves). Never throws. */
  announce(keyId: string): Promise<void>;
  /** Adds a listener; returns what removes it. */
  listen(listener: RevocationListener): () => void;
  close(): Promise<void>;
}
