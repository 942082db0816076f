import type { Result } from '../core/result.ts';

/** Every hashing slot and queue place is taken: the caller answers "busy, retry shortly" at once. */
export interface HasherBusy {
  readonly kind: 'busy';
  /** A fair wait before trying again, in whole seconds. */
  readonly retryAfterSeconds: number;
}

/** What the hasher is doing now, for /metrics and readiness. */
export interface HasherLoad {
  readonly running: number;
  readonly queued: number;
  /** Most requests it holds at once (running and queued); past that it refuses. */
  readonly capacity: number;
  /** Requests refused as busy since start. */
  readonly refused: number;
}

/**
 * Password hashing and checking (scrypt: deliberately slow and memory-hard) where it cannot delay
 * anything else: its own bounded threads and a bounded queue that refuses at once when full, so a
 * flood of sign-ins or password changes costs the flood, not the executes and downloads beside it.
 */
export interface PasswordHasher {
  hash(password: string): Promise<Result<string, HasherBusy>>;
  /** Whether the password matches the stored hash (false for a hash this service did not write). */
  verify(password: string, stored: string): Promise<Result<boolean, HasherBusy>>;
  load(): HasherLoad;
  close(): Promise<void>;
}
