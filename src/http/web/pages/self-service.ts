/**
 * The forms of the holder's self-service: "Forgot your password?" (by email, or the operator when
 * the service sends no email), and the account page: change the password, see the browsers
 * signed in and end any of them.
 */
import type { WebSession } from '../../../ports/credential-store.ts';
import { csrfField, html, notice, when, type Html } from '../html.ts';

export function forgotBody(canEmail: boolean, resetMinutes: number, message?: Html, email = ''): Html {
  const intro = canEmail
    ? html`<p>Type the email your account is under. If it has an account, a link to choose a new password
goes to it; the link works once, for ${resetMinutes} minutes.</p>`
    : html`<p>This service sends no email, so its operator makes reset links. Type the email your account is under
and the operator's log notes the request, or ask them directly (they run
<code>spq admin account invite --reset --account &lt;your account id&gt;</code>). Their link works once; it lets you choose a new password.</p>`;
  return html`${message ?? ''}${intro}
<form method="post" action="/console/forgot" class="stack">
  <div><label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required value="${email}"></div>
  <div><button type="submit">${canEmail ? 'Send me a reset link' : 'Tell the operator'}</button></div>
</form>
<p><a href="/console/sign-in">Back to sign in</a></p>`;
}

export const resetSentBody = (email: string, resetMinutes: number): Html =>
  html`${notice('ok', html`If <strong>${email}</strong> has an account, a reset link is on its way. It works once, for ${resetMinutes} minutes; check the spam folder if it does not arrive within a few minutes.`)}
<p><a href="/console/sign-in">Back to sign in</a></p>`;

/** A session as the holder recognises it: browser and system from the User-Agent, else the string itself. */
export function browserName(userAgent: string | null): string {
  if (userAgent === null || userAgent.trim() === '') return 'Unknown browser';
  const browser = /Edg\//.test(userAgent) ? 'Edge' : /Firefox\//.test(userAgent) ? 'Firefox' : /Chrom(e|ium)\//.test(userAgent) ? 'Chrome' : /Safari\//.test(userAgent) ? 'Safari' : undefined;
  const system = /Android/.test(userAgent) ? 'Android' : /iPhone|iPad/.test(userAgent) ? 'iOS' : /Windows/.test(userAgent) ? 'Windows' : /Mac OS X|Macintosh/.test(userAgent) ? 'macOS' : /Linux/.test(userAgent) ? 'Linux' : undefined;
  return browser && system ? `${browser} on ${system}` : userAgent.slice(0, 80);
}

export function accountBody(csrf: string, current: WebSession, sessions: readonly WebSession[], timeZone: string, message?: Html): Html {
  return html`${message ?? ''}
<h2>Change your password</h2>
<form method="post" action="/console/account/password" class="stack">${csrfField(csrf)}
  <div><label for="current">Current password</label><input id="current" name="current" type="password" autocomplete="current-password" required></div>
  <div><label for="password">New password</label><input id="password" name="password" type="password" autocomplete="new-password" minlength="12" required></div>
  <div><label for="confirmation">The new password again</label><input id="confirmation" name="confirmation" type="password" autocomplete="new-password" minlength="12" required></div>
  <div><button type="submit">Change password</button></div>
</form>
<p class="hint">Changing it signs out every other browser.</p>
<h2>Signed-in browsers</h2>
<div class="table-wrap" tabindex="0" role="region" aria-label="Signed-in browsers"><table><thead><tr><th scope="col">Browser</th><th scope="col">Signed in</th><th scope="col">Last seen</th><th scope="col"><span class="skip">Action</span></th></tr></thead><tbody>
${sessions.map(
  (s) => html`<tr><td title="${s.userAgent ?? ''}">${browserName(s.userAgent)}${s.sessionId === current.sessionId ? html` <strong>(this browser)</strong>` : ''}</td><td>${when(s.createdAt, timeZone)}</td><td>${when(s.lastSeenAt, timeZone)}</td>
<td><form method="post" action="/console/account/sessions/${s.sessionId}/end" class="inline">${csrfField(csrf)}<button type="submit" class="secondary">${s.sessionId === current.sessionId ? 'Sign out' : 'End'}</button></form></td></tr>`,
)}</tbody></table></div>
<form method="post" action="/console/sign-out" class="stack">${csrfField(csrf)}<input type="hidden" name="everywhere" value="yes">
<p class="hint">If you signed in on a computer you no longer use, end every session of this account (this one too). API keys are for programs and keep working unless you revoke them too.</p>
<div class="check"><input id="revoke_keys" name="revoke_keys" type="checkbox" value="yes"> <label for="revoke_keys" class="inline">Also revoke every API key of this account</label></div>
<div><button type="submit" class="secondary">Sign out everywhere</button></div></form>`;
}
