import type { Config } from '../config.ts';
import type { AccountStore } from '../ports/account-store.ts';
import type { Clock } from '../ports/clock.ts';
import type { FileStore } from '../ports/file-store.ts';
import type { KeyRevocations } from '../ports/key-revocations.ts';
import type { ImplicateSource, PoolRelease } from '../ports/pool-release.ts';
import type { Mailer } from '../ports/mailer.ts';
import type { PaymentProvider } from '../ports/payments.ts';
import type { Randomness } from '../ports/randomness.ts';
import type { RateLimiter } from '../ports/rate-limiter.ts';
import type { ScratchSpace } from '../ports/scratch.ts';

/** Everything the use cases need, passed in by the composition root (src/main/compose.ts) or a test. */
export interface UseCaseDeps {
  readonly config: Config;
  readonly accounts: AccountStore;
  readonly limiter: RateLimiter;
  readonly files: FileStore;
  /** The served release (its first implicate). */
  readonly pools: PoolRelease;
  /** The release's independently synthesized implicates; without it, implicate 1 (`pools`) is the only one. */
  readonly implicates?: ImplicateSource;
  readonly clock: Clock;
  /** Ids and sampling seeds. */
  readonly randomness: Randomness;
  /** Where an execute writes its file before storing it. */
  readonly scratch: ScratchSpace;
  /** Server secret: keys are hashed with it (the local file store signs links with it too). */
  readonly serverSecret: string;
  /** Word of revoked API keys to every instance (Redis on scale-out); buildApp makes an in-process one when absent. */
  readonly keyRevocations?: KeyRevocations;
  /** This process's id in the instance leases (scale-out crash recovery); charges record it. */
  readonly instanceId?: string;
  /** Email to holders (password-reset links); absent when no SMTP is configured. */
  readonly mailer?: Mailer | undefined;
  /** Selling bundles (Stripe, or none: the operator grants them); absent means none. */
  readonly payments?: PaymentProvider | undefined;
}

/** Where use cases report what an operator needs to know (infrastructure failures, recoveries). */
export interface OpsLog {
  info(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}
