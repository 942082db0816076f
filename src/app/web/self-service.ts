import { addressSubject } from '../../core/address-subject.ts';
import { appError, type AppError } from '../../core/errors.ts';
import { hashApiKey, isId } from '../../core/keys.ts';
import { passwordProblem } from '../../core/password.ts';
import { err, ok, type Result } from '../../core/result.ts';
import type { WebSession } from '../../ports/credential-store.ts';
import { publicBaseUrl } from '../../config.ts';
import type { OpsLog } from '../deps.ts';
import { normaliseEmail } from '../accounts.ts';
import { hasherBusy, issueOneTimeLink, knownBrowserValid, openSession, pairPolicies, RESET_STILL_OPEN, sessionIdleMs, waitError, type SignInDeps } from './sign-in.ts';

/**
 * What a signed-in holder does to their own sign-in, and how one who forgot the password gets
 * back in: change the password (the current one required; every other browser signed out), list
 * the browsers signed in and end any of them, and a reset link by email (single-use, expiring,
 * stored as a keyed hash like every one-time link; sign-in throttling never blocks it).
 */
export async function changePassword(
  deps: SignInDeps,
  input: { readonly session: WebSession; readonly email: string; readonly current: string; readonly password: string; readonly confirmation: string },
): Promise<Result<{ readonly otherSessionsEnded: number; readonly token: string; readonly session: WebSession }, AppError>> {
  const confirmed = await confirmCurrentPassword(deps, input.session.accountId, input.current);
  if (!confirmed.ok) return confirmed;
  if (input.password !== input.confirmation) return err(appError('validation_error', 'The two new passwords differ. Type the same password twice.'));
  if (input.password === input.current) return err(appError('validation_error', 'The new password is the current one. Choose another.'));
  const problem = passwordProblem(input.password, input.email);
  if (problem !== undefined) return err(appError('validation_error', problem));
  const now = deps.clock.now();
  const others = (await deps.credentials.listSessions(input.session.accountId, now, sessionIdleMs(deps.config))).filter((s) => s.sessionId !== input.session.sessionId);
  // This browser goes on under a new session token: the old one (which may have been seen) ends
  // with every other session when the password changes.
  const passwordHash = await deps.passwords.hash(input.password);
  if (!passwordHash.ok) return err(hasherBusy(passwordHash.error));
  const rotated = await openSession(deps, input.session.accountId, input.session.userAgent ?? undefined);
  await deps.credentials.changePassword({ accountId: input.session.accountId, passwordHash: passwordHash.value, keepSessionId: rotated.session.sessionId, now });
  return ok({ otherSessionsEnded: others.length, ...rotated });
}

/**
 * Re-authentication before what a stolen session must not do alone (change the password, create
 * an API key): the holder's current password. Each attempt is a guess like any sign-in: limited
 * per account with the same backoff, one allowance for both forms, counted before it is checked
 * (a stolen session must not become a fast password oracle).
 */
export async function confirmCurrentPassword(deps: SignInDeps, accountId: string, current: string): Promise<Result<void, AppError>> {
  const limit = await deps.limiter.hit(`password-change:account:${accountId}`, pairPolicies(deps.config.accountArea.signInAttemptsPerPair), deps.clock.now().getTime());
  if (!limit.allowed) return err(waitError(limit.resetSeconds, 'There were too many attempts at the current password.', ` Or sign out and use "Forgot your password?": ${RESET_STILL_OPEN}`));
  const stored = (await deps.credentials.holder(accountId))?.passwordHash;
  const checked = stored === undefined || stored === null ? ok(false) : await deps.passwords.verify(current, stored);
  if (!checked.ok) return err(hasherBusy(checked.error));
  if (!checked.value) return err(appError('validation_error', 'Your current password is not right. Type it again (or sign out and use "Forgot your password?").'));
  return ok(undefined);
}

/** The holder's signed-in browsers, newest first. */
export async function signedInBrowsers(deps: Pick<SignInDeps, 'credentials' | 'clock' | 'config'>, accountId: string): Promise<readonly WebSession[]> {
  return deps.credentials.listSessions(accountId, deps.clock.now(), sessionIdleMs(deps.config));
}

/** Ends one of the holder's own sessions; another holder's (or an unknown) id is "not found". */
export async function endSession(deps: Pick<SignInDeps, 'credentials' | 'clock' | 'config'>, input: { readonly accountId: string; readonly sessionId: string }): Promise<Result<WebSession, AppError>> {
  const notFound = appError('not_found', 'No such signed-in browser. It may have signed out or been ended already.');
  if (!isId('ses', input.sessionId)) return err(notFound);
  const session = (await signedInBrowsers(deps, input.accountId)).find((s) => s.sessionId === input.sessionId);
  if (session === undefined) return err(notFound);
  await deps.credentials.revokeSession(session.sessionId, deps.clock.now());
  return ok(session);
}

const RESET_WINDOW_SECONDS = 3600;
/** A mailbox's reset links across all addresses in an hour: this many times the per-address allowance. */
const RESET_SPREAD = 5;

/**
 * "Forgot your password?": when the email belongs to an account, a reset link goes to it. The
 * answer is the same whether it does or not (no way to learn who holds an account), and so is the
 * work done before it: the limits are counted, and everything that depends on the account (the
 * look-up, the link written, the email sent) runs after the answer, so its timing tells nothing
 * either. Requests are limited per client address, per (email, address), and per email across
 * addresses unless asked from a browser that signed in to the account before, so nobody else can
 * block the holder's own reset mail; a link already sent keeps working. Without a mailer (no SMTP
 * configured) no link is made: the operator's log says who asked and the command that prints them one.
 */
export async function requestPasswordReset(
  deps: SignInDeps & { readonly log: OpsLog },
  input: { readonly email: string; readonly address: string; readonly knownBrowser?: string | undefined },
): Promise<Result<void, AppError>> {
  const email = normaliseEmail(input.email);
  if (!email.ok) return err(appError('validation_error', 'Type the email address your account is under (e.g. name@example.org).'));
  const nowMs = deps.clock.now().getTime();
  const perHour = deps.config.accountArea.resetEmailsPerHour;
  const from = addressSubject(input.address);
  const perAddress = await deps.limiter.hit(`reset:address:${from}`, [{ name: 'reset-address', limit: 10 * perHour, windowSeconds: RESET_WINDOW_SECONDS }], nowMs);
  if (!perAddress.allowed) return err(waitError(perAddress.resetSeconds, 'There were too many reset requests from this address.'));
  // Keyed like the sign-in limits, so the shared limiter (Redis) holds no email in the clear.
  const emailKey = hashApiKey(`reset-email\0${email.value}`, deps.serverSecret);
  // Per (email, address): someone else's requests never use up the holder's own allowance…
  const perPair = await deps.limiter.hit(`reset:pair:${emailKey}:${from}`, [{ name: 'reset-email', limit: perHour, windowSeconds: RESET_WINDOW_SECONDS }], nowMs);
  if (!perPair.allowed) return err(waitError(perPair.resetSeconds, `Reset links were sent to this address ${perHour} times in the last hour: use the newest one (check the spam folder).`));
  // …and across every address a mailbox gets at most RESET_SPREAD times as many, except when asked
  // from a browser that has signed in to the account before (the holder's own, which nobody else can block).
  if (!knownBrowserValid(deps.serverSecret, email.value, input.knownBrowser)) {
    const perEmail = await deps.limiter.hit(`reset:email:${emailKey}`, [{ name: 'reset-email-all', limit: RESET_SPREAD * perHour, windowSeconds: RESET_WINDOW_SECONDS }], nowMs);
    if (!perEmail.allowed) {
      return err(waitError(perEmail.resetSeconds, `Reset links were sent to this address ${RESET_SPREAD * perHour} times in the last hour from several places: use the newest one (check the spam folder).`, ' A browser you have signed in with before can still ask for one.'));
    }
  }
  // Not awaited: the answer leaves before the account is even looked up.
  setImmediate(() => void sendResetLink(deps, email.value).catch((error: unknown) => deps.log.error({ err: error }, 'account area: a password reset could not be prepared')));
  return ok(undefined);
}

/** The account-dependent part of a reset request, after the answer: the link, written and emailed when the email has an account. */
async function sendResetLink(deps: SignInDeps & { readonly log: OpsLog }, email: string): Promise<void> {
  const account = await deps.credentials.findAccountByEmail(email);
  if (account === undefined) return;
  if (deps.mailer === undefined) {
    deps.log.info({ account: account.accountId }, `account area: a password reset was asked for and no SMTP is configured; send the holder a link: spq admin account invite --reset --account ${account.accountId}`);
    return;
  }
  const minutes = deps.config.accountArea.resetLinkMinutes;
  const link = await issueOneTimeLink(deps, { accountId: account.accountId, purpose: 'reset', validMinutes: minutes });
  if (!link.ok) return;
  const url = `${publicBaseUrl(deps.config)}${link.value.path}`;
  try {
    await deps.mailer.send({
      to: account.email,
      subject: 'Reset your spq password',
      text: [
        'Someone, probably you, asked to reset the password of your spq account.',
        '',
        `To choose a new password, open this link within ${minutes} minutes. It works once:`,
        url,
        '',
        'If you did not ask, ignore this email: your password stays as it is.',
        '',
      ].join('\n'),
    });
    deps.log.info({ account: account.accountId }, 'account area: password-reset email sent');
  } catch (error: unknown) {
    deps.log.error({ err: error, account: account.accountId }, 'account area: password-reset email could not be sent');
  }
}
