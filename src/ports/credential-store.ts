/**
 * How account holders sign in to the account area: their password hash and time zone, one-time
 * links (invitation, password reset) and browser sessions. Only keyed hashes of links and session
 * tokens are stored, so a copy of the database signs nobody in. The API never uses it (the API
 * takes API keys only). Implementations: SQLite and PostgreSQL (adapters/db, on the same database
 * as the AccountStore, so sessions hold across instances) and an in-memory fake; all pass
 * test/adapters/credential-store.contract.ts.
 */
/** Time zone of holders who have not chosen one: the free allowance resets at Sydney's Monday midnight. */
export const DEFAULT_TIME_ZONE = 'Australia/Sydney';

export type OneTimePurpose = 'invitation' | 'reset';

export interface HolderSettings {
  /** scrypt hash (core/password.ts); null until an invitation is accepted. */
  readonly passwordHash: string | null;
  /** IANA time zone the pages show times in. */
  readonly timeZone: string;
}

export interface WebSession {
  readonly sessionId: string;
  readonly accountId: string;
  readonly createdAt: Date;
  readonly expiresAt: Date;
  readonly lastSeenAt: Date;
}

export interface CredentialStore {
  holder(accountId: string): Promise<HolderSettings | undefined>;
  setTimeZone(input: { accountId: string; timeZone: string; now: Date }): Promise<void>;

  addOneTimeLink(input: { tokenHash: string; accountId: string; purpose: OneTimePurpose; now: Date; expiresAt: Date }): Promise<void>;
  /** The account a link is for while it is unused and unexpired (the page that asks for the password). */
  oneTimeLinkAccount(tokenHash: string, now: Date): Promise<string | undefined>;
  /**
   * One transaction: marks the link used (once, however concurrently), sets the password and
   * revokes every session of the account. undefined when the link is unknown, used or expired.
   */
  redeemOneTimeLink(input: { tokenHash: string; passwordHash: string; now: Date }): Promise<string | undefined>;

  createSession(input: { sessionId: string; tokenHash: string; accountId: string; now: Date; expiresAt: Date }): Promise<void>;
  /** A session that is not revoked, not past its expiry and seen within `idleMs`. */
  findSession(tokenHash: string, now: Date, idleMs: number): Promise<WebSession | undefined>;
  touchSession(sessionId: string, now: Date): Promise<void>;
  revokeSession(sessionId: string, now: Date): Promise<void>;
  /** Every live session of the account (sign out everywhere, password change); how many. */
  revokeSessions(accountId: string, now: Date): Promise<number>;
}
