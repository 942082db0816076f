import type { FastifyReply, FastifyRequest } from 'fastify';
import { changePassword, endSession, requestPasswordReset, signedInBrowsers } from '../../app/web/self-service.ts';
import { timeZoneOf, type HolderDeps } from '../../app/web/holder.ts';
import { csrfToken, type SignInDeps } from '../../app/web/sign-in.ts';
import type { AppError } from '../../core/errors.ts';
import type { Api, AppDeps } from '../types.ts';
import { html, notice, type Html, type Section } from './html.ts';
import type { FormBody } from './pages/forms.ts';
import { accountBody, forgotBody, resetSentBody } from './pages/self-service.ts';
import { clearedSessionCookie, cookieValue, knownBrowserCookieName, sameOrigin, sessionCookie, type WebContext } from './session.ts';

type Context = WebContext & { email: string; section: Section };

/** What the account area's registration hands these routes: its page sender, session check and refusal page. */
export interface AccountAreaKit {
  readonly signInDeps: SignInDeps;
  readonly holderDeps: HolderDeps;
  readonly secure: boolean;
  readonly formRoute: { readonly schema: { readonly hide: true }; readonly bodyLimit: number };
  readonly hidden: { readonly schema: { readonly hide: true } };
  send(reply: FastifyReply, status: number, title: string, body: Html, context?: Context): FastifyReply;
  signedIn(request: FastifyRequest, reply: FastifyReply, section: Section): Promise<Context | undefined>;
  refusal(reply: FastifyReply, error: AppError, title: string, body: Html, context?: Context): Promise<FastifyReply>;
}

/**
 * The holder's self-service routes (/console/forgot, /console/account/…): a reset link by email
 * (or the operator's, when no SMTP is configured), the password change and the signed-in browsers.
 */
export function registerSelfService(app: Api, deps: AppDeps, kit: AccountAreaKit): void {
  const { send, signedIn, refusal, signInDeps } = kit;
  const mailer = deps.mailer;
  const resetMinutes = deps.config.accountArea.resetLinkMinutes;
  const opsLog = {
    info: (fields: Record<string, unknown>, message: string) => app.log.info(fields, message),
    error: (fields: Record<string, unknown>, message: string) => app.log.error(fields, message),
  };

  app.get('/console/forgot', kit.hidden, async (_request, reply) => send(reply, 200, 'Forgot your password?', forgotBody(mailer !== undefined, resetMinutes)));
  app.post('/console/forgot', kit.formRoute, async (request, reply) => {
    const email = ((request.body as FormBody).email ?? '').slice(0, 254);
    if (!sameOrigin(request, deps.config)) return send(reply, 403, 'Forgot your password?', forgotBody(mailer !== undefined, resetMinutes, notice('error', 'This form did not come from this site. Open the page again and resend it.')));
    const requested = await requestPasswordReset({ ...signInDeps, log: opsLog }, { email, address: request.clientAddress, knownBrowser: cookieValue(request, knownBrowserCookieName(kit.secure)) });
    if (mailer === undefined) {
      // The same page whatever the email, refused or not: the operator's log has the request.
      return send(reply, 200, 'Forgot your password?', forgotBody(false, resetMinutes, notice('info', 'Your request is noted for the operator.')));
    }
    if (!requested.ok) return refusal(reply, requested.error, 'Forgot your password?', forgotBody(true, resetMinutes, notice('error', requested.error.detail), email));
    request.log.info('account area: password reset requested');
    return send(reply, 200, 'Check your email', resetSentBody(email, resetMinutes));
  });

  const accountPageBody = async (context: Context, message?: Html) => {
    const [sessions, timeZone] = await Promise.all([signedInBrowsers(signInDeps, context.session.accountId), timeZoneOf(kit.holderDeps, context.session.accountId)]);
    return accountBody(context.csrf, context.session, sessions, timeZone, message);
  };
  const accountPage = async (reply: FastifyReply, context: Context, status = 200, message?: Html) => send(reply, status, 'Your account', await accountPageBody(context, message), context);
  app.get('/console/account', kit.hidden, async (request, reply) => {
    const context = await signedIn(request, reply, 'account');
    return context ? accountPage(reply, context) : reply;
  });
  app.post('/console/account/password', kit.formRoute, async (request, reply) => {
    const context = await signedIn(request, reply, 'account');
    if (!context) return reply;
    const form = request.body as FormBody;
    const changed = await changePassword(signInDeps, { session: context.session, email: context.email, current: form.current ?? '', password: form.password ?? '', confirmation: form.confirmation ?? '' });
    // 422 for a wrong or weak password; 429 past the attempt limit or when the hasher is full (with
    // their waits), answered with the notice alone: a refused guess costs no page of reads.
    if (!changed.ok) {
      const body = changed.error.code === 'rate_limited' ? notice('error', changed.error.detail) : await accountPageBody(context, notice('error', changed.error.detail));
      return refusal(reply, changed.error, 'Your account', body, context);
    }
    request.log.info({ account: context.session.accountId, ended: changed.value.otherSessionsEnded, session: changed.value.session.sessionId }, 'account area: password changed, other sessions ended, session token rotated');
    const others = changed.value.otherSessionsEnded;
    void reply.header('set-cookie', sessionCookie(changed.value.token, deps.config.accountArea.sessionHours * 3600, kit.secure));
    const rotated: Context = { ...context, session: changed.value.session, csrf: csrfToken(deps.serverSecret, changed.value.session) };
    return accountPage(reply, rotated, 200, notice('ok', `Your password is changed.${others > 0 ? ` ${others} other browser${others === 1 ? ' was' : 's were'} signed out.` : ''}`));
  });
  app.post<{ Params: { sessionId: string } }>('/console/account/sessions/:sessionId/end', kit.formRoute, async (request, reply) => {
    const context = await signedIn(request, reply, 'account');
    if (!context) return reply;
    const ended = await endSession(signInDeps, { accountId: context.session.accountId, sessionId: request.params.sessionId });
    if (!ended.ok) return accountPage(reply, context, 404, notice('error', ended.error.detail));
    request.log.info({ account: context.session.accountId, session: ended.value.sessionId }, 'account area: session ended by its holder');
    if (ended.value.sessionId === context.session.sessionId) {
      void reply.header('set-cookie', clearedSessionCookie(kit.secure));
      return reply.redirect('/console/sign-in', 303);
    }
    return accountPage(reply, context, 200, notice('ok', html`That browser is signed out.`));
  });
}
