import { addressSubject } from '../../core/address-subject.ts';
import { timingSafeEqual } from 'node:crypto';
import { durationInWords } from '../../core/duration.ts';
import { appError, type AppError } from '../../core/errors.ts';
import { hashApiKey, isId, newId, randomBase62 } from '../../core/keys.ts';
import { passwordProblem } from '../../core/password.ts';
import { err, ok, type Result } from '../../core/result.ts';
import type { Clock } from '../../ports/clock.ts';
import { USER_AGENT_MAX, type CredentialStore, type OneTimePurpose, type WebSession } from '../../ports/credential-store.ts';
import type { RateLimiter, WindowPolicy } from '../../ports/rate-limiter.ts';
import type { Config } from '../../config.ts';
import type { Mailer } from '../../ports/mailer.ts';
import type { HasherBusy, PasswordHasher } from '../../ports/password-hasher.ts';
import { normaliseEmail } from '../accounts.ts';

/**
 * Sign-in to the account area: one-time links (invitation and reset, printed by the admin CLI),
 * passwords (scrypt), sessions (a random token in a cookie; only its keyed hash is stored) and
 * the CSRF token bound to the session. The API itself never accepts a session: only API keys.
 */
export interface SignInDeps {
  /** Accounts and their credentials (the account area reads nothing else to sign someone in). */
  readonly credentials: CredentialStore;
  readonly limiter: RateLimiter;
  /** Hashes and checks passwords on the service's own bounded threads (never Node's shared pool). */
  readonly passwords: PasswordHasher;
  readonly clock: Clock;
  readonly config: Pick<Config, 'accountArea' | 'publicBaseUrl' | 'host' | 'port'>;
  readonly serverSecret: string;
  /** Sends password-reset links; absent when no SMTP is configured (holders then ask the operator). */
  readonly mailer?: Mailer | undefined;
}

const TOKEN_LENGTH = 32;
const MINUTE = 60_000;

/**
 * How long after its last recorded use a session lives: the idle timeout, plus the minute by which
 * the record of its last use may lag (it is written at most once a minute), so a session ends no
 * sooner than the idle timeout after it was really last used.
 */
export const sessionIdleMs = (config: Pick<SignInDeps['config'], 'accountArea'>): number => config.accountArea.sessionIdleMinutes * MINUTE + MINUTE;
/** The path of a one-time link; the token is its last segment (redacted from logs). */
export const ONE_TIME_LINK_PATH = '/console/welcome/';

/** The server secret's HMAC, as for API keys, with the purpose in front so a token of one kind never matches another. */
const keyedHash = (secret: string, purpose: string, token: string): string => hashApiKey(`${purpose}\0${token}`, secret);
const wellFormedToken = (token: string): boolean => token.length === TOKEN_LENGTH && /^[0-9A-Za-z]+$/.test(token);

/** A one-time link for the holder to set (invitation) or reset their password. */
export async function issueOneTimeLink(
  deps: Pick<SignInDeps, 'credentials' | 'clock' | 'config' | 'serverSecret'>,
  input: { readonly accountId: string; readonly purpose: OneTimePurpose; /** Default: SPQ_ONE_TIME_LINK_HOURS. */ readonly validMinutes?: number },
): Promise<Result<{ readonly path: string; readonly expiresAt: Date }, AppError>> {
  if (!isId('acc', input.accountId)) return err(appError('bad_request', `"${input.accountId}" is not an account id (acc_ followed by 20 letters and digits)`));
  if ((await deps.credentials.getAccount(input.accountId)) === undefined) return err(appError('not_found', `no account ${input.accountId}`));
  const token = randomBase62(TOKEN_LENGTH);
  const now = deps.clock.now();
  const expiresAt = new Date(now.getTime() + (input.validMinutes ?? deps.config.accountArea.oneTimeLinkHours * 60) * MINUTE);
  await deps.credentials.addOneTimeLink({ tokenHash: keyedHash(deps.serverSecret, 'link', token), accountId: input.accountId, purpose: input.purpose, now, expiresAt });
  return ok({ path: `${ONE_TIME_LINK_PATH}${token}`, expiresAt });
}

const LINK_DEAD = 'This link has been used, has expired, or was mistyped. Ask for a new one with "Forgot your password?" on the sign-in page.';

/** The email a live one-time link is for (the page that asks for a password shows it). */
export async function oneTimeLinkHolder(deps: Pick<SignInDeps, 'credentials' | 'clock' | 'serverSecret'>, token: string): Promise<Result<{ readonly email: string }, AppError>> {
  if (!wellFormedToken(token)) return err(appError('not_found', LINK_DEAD));
  const accountId = await deps.credentials.oneTimeLinkAccount(keyedHash(deps.serverSecret, 'link', token), deps.clock.now());
  const account = accountId === undefined ? undefined : await deps.credentials.getAccount(accountId);
  return account === undefined ? err(appError('not_found', LINK_DEAD)) : ok({ email: account.email });
}

/** Sets the password through a one-time link; every earlier session of the account ends. */
export async function setPasswordWithLink(deps: SignInDeps, input: { readonly token: string; readonly password: string; readonly confirmation: string }): Promise<Result<{ readonly accountId: string }, AppError>> {
  const holder = await oneTimeLinkHolder(deps, input.token);
  if (!holder.ok) return holder;
  if (input.password !== input.confirmation) return err(appError('validation_error', 'The two passwords differ. Type the same password twice.'));
  const problem = passwordProblem(input.password, holder.value.email);
  if (problem !== undefined) return err(appError('validation_error', problem));
  const passwordHash = await deps.passwords.hash(input.password);
  if (!passwordHash.ok) return err(hasherBusy(passwordHash.error));
  const accountId = await deps.credentials.redeemOneTimeLink({ tokenHash: keyedHash(deps.serverSecret, 'link', input.token), passwordHash: passwordHash.value, now: deps.clock.now() });
  return accountId === undefined ? err(appError('not_found', LINK_DEAD)) : ok({ accountId });
}

const SIGN_IN_WINDOW_SECONDS = 15 * 60;

/**
 * Attempts for one email from one address: n a minute, 2n per 15 minutes, 4n a day, so each
 * burst of wrong guesses waits longer (backoff), while the holder at their own address is never
 * held up by guesses from elsewhere, and a reset link (which no sign-in limit touches) can always be asked for from a known browser.
 */
export const pairPolicies = (perMinute: number): WindowPolicy[] => [
  { name: 'sign-in-minute', limit: perMinute, windowSeconds: 60 },
  { name: 'sign-in-quarter-hour', limit: 2 * perMinute, windowSeconds: SIGN_IN_WINDOW_SECONDS },
  { name: 'sign-in-day', limit: 4 * perMinute, windowSeconds: 86_400 },
];
const WRONG = 'The email or password is wrong. Check both and try again; if you have no password yet, use the invitation link you were sent.';
/** Verified against when the email has no password, so a wrong email costs as long as a wrong password. */
let decoyHash: Promise<string | undefined> | undefined;

/**
 * The way back in that no guessing limit closes, for the end of a lock-out message: a reset link
 * (its own limits leave the holder's browser always able to ask for one).
 */
export const RESET_STILL_OPEN = 'no sign-in limit holds up a reset link, and a browser you have signed in with before can always ask for one.';

/**
 * Every password thread and queue place is taken: a page that says so, with the wait. 429 with
 * Retry-After, not a 5xx: the instance is well, it refuses more of one kind of work than it
 * takes at once (a flood of guesses), and everything else it serves goes on as before.
 */
export const hasherBusy = (busy: HasherBusy): AppError =>
  appError('rate_limited', `Too many passwords are being checked right now. Try again in ${durationInWords(busy.retryAfterSeconds)}.`, { retry_after_seconds: busy.retryAfterSeconds });

/** The check a wrong email costs: the same scrypt as a wrong password (against a decoy hash made once). */
async function checkDecoy(passwords: PasswordHasher, password: string): Promise<Result<false, AppError>> {
  decoyHash ??= passwords.hash(randomBase62(20)).then((made) => (made.ok ? made.value : undefined));
  const decoy = await decoyHash;
  if (decoy === undefined) {
    decoyHash = undefined; // busy when first made: made again next time
    return err(appError('unauthorized', WRONG));
  }
  const checked = await passwords.verify(password, decoy);
  return checked.ok ? ok(false) : err(hasherBusy(checked.error));
}

/**
 * Email and password → a new session. Attempts are limited per client address and per (email,
 * address) pair with backoff (pairPolicies), counted before the password is checked, so guessing
 * is slow whatever the answers, but never per email alone: guesses from elsewhere cannot lock the
 * holder out. An existing session cookie is never reused, so a planted session id cannot be fixed on a victim.
 */
export async function signIn(
  deps: SignInDeps,
  input: {
    readonly email: string;
    readonly password: string;
    readonly address: string;
    readonly userAgent?: string | undefined;
    /** The browser's known-browser token (a cookie set at an earlier sign-in), if it sent one. */
    readonly knownBrowser?: string | undefined;
  },
): Promise<Result<{ readonly token: string; readonly session: WebSession; readonly knownBrowser: string }, AppError>> {
  const email = normaliseEmail(input.email);
  const nowMs = deps.clock.now().getTime();
  const limits = deps.config.accountArea;
  // An IPv6 client counts as its /64 (any address of it, any spelling): it cannot take a fresh allowance per address.
  const subject = addressSubject(input.address);
  const perAddress = await deps.limiter.hit(`sign-in:address:${subject}`, [{ name: 'sign-in-address', limit: limits.signInAttemptsPerAddress, windowSeconds: SIGN_IN_WINDOW_SECONDS }], nowMs);
  if (!perAddress.allowed) return err(waitError(perAddress.resetSeconds, 'There were too many sign-in attempts from this address.', ` Or use "Forgot your password?" below: ${RESET_STILL_OPEN}`));
  if (!email.ok) return err(appError('unauthorized', WRONG));
  const perPair = await deps.limiter.hit(`sign-in:pair:${keyedHash(deps.serverSecret, 'email', `${email.value}\0${subject}`)}`, pairPolicies(limits.signInAttemptsPerPair), nowMs);
  if (!perPair.allowed) {
    return err(signInWait(perPair.resetSeconds));
  }

  // Guesses at one account from every address together: past the limit, only a browser that has
  // signed in to this account before may try (the holder's own; never the attacker's many addresses).
  const known = knownBrowserValid(deps.serverSecret, email.value, input.knownBrowser);
  if (!known) {
    const perAccount = await deps.limiter.hit(`sign-in:account:${keyedHash(deps.serverSecret, 'email', email.value)}`, accountPolicies(limits.signInAttemptsPerAccount), nowMs);
    if (!perAccount.allowed) return err(accountLocked(perAccount.resetSeconds));
  }
  const account = await deps.credentials.findAccountByEmail(email.value);
  const stored = account === undefined ? undefined : (await deps.credentials.holder(account.accountId))?.passwordHash;
  if (account === undefined || stored === undefined || stored === null) {
    const decoy = await checkDecoy(deps.passwords, input.password);
    return decoy.ok ? err(appError('unauthorized', WRONG)) : decoy;
  }
  const checked = await deps.passwords.verify(input.password, stored);
  if (!checked.ok) return err(hasherBusy(checked.error));
  if (!checked.value) return err(appError('unauthorized', WRONG));
  const knownBrowser = known ? input.knownBrowser! : knownBrowserToken(deps.serverSecret, email.value);
  return ok({ ...(await openSession(deps, account.accountId, input.userAgent)), knownBrowser });
}

/**
 * Sign-in attempts at one account from browsers that have not signed in to it before, from every
 * address together: n per 15 minutes and 5n a day. Spread over many addresses, guesses at one
 * account still stop; the holder's own browser (known) is never held by them.
 */
export const accountPolicies = (perQuarterHour: number): WindowPolicy[] => [
  { name: 'sign-in-account-quarter-hour', limit: perQuarterHour, windowSeconds: SIGN_IN_WINDOW_SECONDS },
  { name: 'sign-in-account-day', limit: 5 * perQuarterHour, windowSeconds: 86_400 },
];

const accountLocked = (seconds: number): AppError =>
  waitError(
    seconds,
    'There were too many sign-in attempts for this account from browsers that have not signed in to it before.',
    ` A browser you have signed in with before can sign in now; or use "Forgot your password?" below: ${RESET_STILL_OPEN}`,
  );

/**
 * A known-browser token: a random id and its keyed hash with the email, set as a long-lived cookie
 * at a successful sign-in. It proves this browser signed in to this account before; it grants
 * nothing else (the password is still checked, and the per-pair limit still applies).
 */
export function knownBrowserToken(serverSecret: string, email: string): string {
  const id = randomBase62(22);
  return `${id}.${keyedHash(serverSecret, 'browser', `${email}\0${id}`)}`;
}

export function knownBrowserValid(serverSecret: string, email: string, token: string | undefined): boolean {
  if (token === undefined || token.length > 200) return false;
  const [id, mac, extra] = token.split('.');
  if (id === undefined || mac === undefined || extra !== undefined || !/^[0-9A-Za-z]{22}$/.test(id)) return false;
  const expected = Buffer.from(keyedHash(serverSecret, 'browser', `${email}\0${id}`));
  const sent = Buffer.from(mac);
  return sent.length === expected.length && timingSafeEqual(sent, expected);
}

/** The live session a cookie carries, if any; its idle clock is reset at most once a minute. */
export async function sessionOf(deps: Pick<SignInDeps, 'credentials' | 'clock' | 'config' | 'serverSecret'>, token: string | undefined): Promise<WebSession | undefined> {
  if (token === undefined || !wellFormedToken(token)) return undefined;
  const now = deps.clock.now();
  const session = await deps.credentials.findSession(keyedHash(deps.serverSecret, 'session', token), now, sessionIdleMs(deps.config));
  if (session !== undefined && now.getTime() - session.lastSeenAt.getTime() >= MINUTE) await deps.credentials.touchSession(session.sessionId, now);
  return session;
}

export async function signOut(deps: Pick<SignInDeps, 'credentials' | 'clock'>, session: WebSession, everywhere: boolean): Promise<void> {
  if (everywhere) await deps.credentials.revokeSessions(session.accountId, deps.clock.now());
  else await deps.credentials.revokeSession(session.sessionId, deps.clock.now());
}

/** The CSRF token of a session (synchroniser token: a keyed hash of the session id, sent in every form). */
export const csrfToken = (serverSecret: string, session: WebSession): string => keyedHash(serverSecret, 'csrf', session.sessionId);

export function csrfValid(serverSecret: string, session: WebSession, sent: unknown): boolean {
  if (typeof sent !== 'string') return false;
  const expected = Buffer.from(csrfToken(serverSecret, session));
  const given = Buffer.from(sent);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * A new session for a holder who just proved who they are another way (a one-time link they
 * used to set their password), so they need not sign in again by hand. Like signIn's, it is
 * a fresh token: nothing the browser sent before is adopted.
 */
export async function openSession(
  deps: Pick<SignInDeps, 'credentials' | 'clock' | 'config' | 'serverSecret'>,
  accountId: string,
  userAgent?: string | undefined,
): Promise<{ readonly token: string; readonly session: WebSession }> {
  const token = randomBase62(TOKEN_LENGTH);
  const now = deps.clock.now();
  const session: WebSession = {
    sessionId: newId('ses'),
    accountId,
    createdAt: now,
    expiresAt: new Date(now.getTime() + deps.config.accountArea.sessionHours * 3_600_000),
    lastSeenAt: now,
    userAgent: userAgent ? userAgent.slice(0, USER_AGENT_MAX) : null,
  };
  await deps.credentials.createSession({ ...session, tokenHash: keyedHash(deps.serverSecret, 'session', token), now });
  return { token, session };
}


/** A limit of the account area reached, in words: what happened, how long to wait, and what else works. */
export function waitError(resetSeconds: number, what: string, otherwise = ''): AppError {
  const wait = Math.max(1, resetSeconds);
  return appError('rate_limited', `${what} Try again in ${durationInWords(wait)}.${otherwise}`, { retry_after_seconds: wait });
}

/** The pair's limit reached: how long to wait, and the way in that no sign-in limit touches. */
const signInWait = (seconds: number): AppError =>
  waitError(seconds, 'There were too many sign-in attempts for this email from this address.', ` Or use "Forgot your password?" below: ${RESET_STILL_OPEN}`);
