import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import { accountPolicies, accountRateKey, rateLimitedError } from '../../app/rate-limits.ts';
import { executeQuery } from '../../app/execute.ts';
import { queryDetail, queryHistory } from '../../app/history.ts';
import { previewQuery } from '../../app/preview.ts';
import { createOwnKey, creditsOverview, ownKey, revokeEveryKey, revokeOwnKey, setTimeZone, timeZoneOf, TIME_ZONES, type HolderDeps } from '../../app/web/holder.ts';
import { oneTimeLinkHolder, openSession, setPasswordWithLink, signIn, signOut, type SignInDeps } from '../../app/web/sign-in.ts';
import { builderError, inFormWords } from '../../app/web/builder.ts';
import { accountOverview } from '../../app/web/usage.ts';
import { publicBaseUrl } from '../../config.ts';
import { searchGeography } from '../../app/geography.ts';
import { appError, statusOf, type AppError } from '../../core/errors.ts';
import type { CreditSummary } from '../../ports/account-store.ts';
import type { Api, AppDeps } from '../types.ts';
import { SCRIPT, STYLESHEET } from './assets.ts';
import { appErrorOf, renderError, sendError } from '../errors.ts';
import { html, notice, page, type Html, type Section } from './html.ts';
import { queryFromForm, testMode, type FormBody } from './pages/forms.ts';
import { overviewBody } from './pages/overview.ts';
import { queryBody } from './pages/query.ts';
import * as render from './pages/render.ts';
import { printableHeader } from '../plugins/text-guard.ts';
import { registerSelfService } from './self-service-routes.ts';
import { confirmCurrentPassword } from '../../app/web/self-service.ts';
import { registerBuyCredits } from './buy-routes.ts';
import { registerQualityConsole } from './quality/routes.ts';
import { accountPurchases } from '../../app/payments.ts';
import { clearedSessionCookie, cookieValue, csrfOk, currentSession, guessTarpit, knownBrowserCookie, knownBrowserCookieName, pageHeaders, sameOrigin, servedOverTls, sessionCookie, type WebContext } from './session.ts';

const FORM_BODY_LIMIT = 16 * 1024;
const PER_PAGE = 20;
/** Where a holder lands after signing in. */
const HOME = '/console/overview';

/**
 * The account area (/console/…): server-rendered pages where account holders sign in and manage
 * keys, see credits and queries, and build, price, run and download a query. Each action goes
 * through the same use cases as the API (preview, execute with an Idempotency-Key, history, the
 * key store), with the same ledger, rate limits and logs; only the way in differs (a session
 * cookie plus CSRF token instead of an API key, which the API alone accepts).
 */
export function registerAccountArea(app: Api, deps: AppDeps): void {
  const secure = servedOverTls(deps.config.publicBaseUrl);
  const signInDeps: SignInDeps = { ...deps, credentials: deps.accounts };
  const holderDeps: HolderDeps = { store: deps.accounts, serverSecret: deps.serverSecret, clock: deps.clock, ...(deps.keyRevocations ? { keyRevocations: deps.keyRevocations } : {}) };

  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
  const hidden = { schema: { hide: true } } as const;
  const formRoute = { ...hidden, bodyLimit: FORM_BODY_LIMIT } as const;

  const send = (reply: FastifyReply, status: number, title: string, body: ReturnType<typeof html>, context?: WebContext & { email: string; section: Section }) =>
    pageHeaders(reply).code(status).send(page(title, body, context && { email: context.email, csrf: context.csrf, section: context.section }));

  const failure = (error: AppError) => notice('error', error.detail);

  // The pages' forms are browser forms: any other body (JSON, an array, none) is refused as a
  // page before a route reads it, never a TypeError.
  app.addHook('preValidation', async (request, reply) => {
    if (request.method !== 'POST') return;
    const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (type === 'application/x-www-form-urlencoded' && typeof request.body === 'object' && request.body !== null && !Array.isArray(request.body)) return;
    return send(reply, 415, 'Form not read', notice('error', 'This page reads forms as a browser sends them. Go back, reload the page and submit it again.'));
  });

  /**
   * A page for a refused action, with the status and Retry-After the API would send for the same
   * error (renderError decides both; its Bearer challenge belongs to the API, not to pages).
   */
  const refusal = async (reply: FastifyReply, error: AppError, title: string, body: Html, context?: WebContext & { email: string; section: Section }) => {
    const rendered = renderError(error, String(reply.request.id));
    const retryAfter = rendered.headers['retry-after'];
    if (retryAfter !== undefined) void reply.header('retry-after', retryAfter);
    await guessTarpit(error);
    return send(reply, rendered.status, title, body, context);
  };

  // Errors the routes do not answer themselves get a page too, never the API's JSON; what they
  // mean is decided where the API decides it (appErrorOf).
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const meaning = appErrorOf(error, request);
    if (meaning.code === 'bad_request') {
      return refusal(reply, meaning, 'Form not read', notice('error', 'The form could not be read (too long, or not sent by this page). Go back, reload the page and try again.'));
    }
    return refusal(reply, meaning, 'Please try again', failure(meaning));
  });

  /** The signed-in holder, or a redirect to the sign-in page (GET) / 403 (POST without a session). */
  async function signedIn(request: FastifyRequest, reply: FastifyReply, section: Section): Promise<(WebContext & { email: string; section: Section }) | undefined> {
    const context = await currentSession({ ...signInDeps, secure }, request);
    if (context === undefined) {
      if (request.method === 'GET') void reply.redirect('/console/sign-in', 303);
      else void send(reply, 403, 'Signed out', html`<p>Your session has ended. <a href="/console/sign-in">Sign in</a> and try again.</p>`);
      return undefined;
    }
    if (request.method !== 'GET' && (!sameOrigin(request, deps.config) || !csrfOk(deps.serverSecret, context, request.body))) {
      request.log.warn('account area: form refused (CSRF token or origin wrong)');
      void send(reply, 403, 'Form refused', html`<p>This form did not come from your open account page (its security token is missing or old). Go back, reload the page and submit it again.</p>`);
      return undefined;
    }
    const account = await deps.accounts.getAccount(context.session.accountId);
    return { ...context, email: account?.email ?? '', section };
  }

  /**
   * The same per-account windows as the account's API keys, so the pages cannot outrun the API's
   * limits. The balance it reads for the tier is handed on (the preview prices against it).
   */
  async function rateLimited(accountId: string): Promise<{ readonly refused?: AppError; readonly credits: CreditSummary }> {
    const now = deps.clock.now();
    const credits = await deps.accounts.credits(accountId, now);
    const decision = await deps.limiter.hit(accountRateKey(accountId), accountPolicies(deps.config.rateLimits, credits.tier), now.getTime());
    return decision.allowed ? { credits } : { refused: rateLimitedError(decision, 'Too many queries from the account area'), credits };
  }

  /** The ?page= of a paged list: 1–9 plain digits from 1 (as the API's integers: not "1e2" or "0x10"), else 1. */
  const pageOf = (request: FastifyRequest): number => {
    const raw = (request.query as { page?: unknown }).page;
    return typeof raw === 'string' && /^[0-9]{1,9}$/.test(raw) && Number(raw) >= 1 ? Number(raw) : 1;
  };

  app.get('/console/assets/spq.css', hidden, async (_request, reply) => reply.type('text/css; charset=utf-8').header('cache-control', 'public, max-age=3600').send(STYLESHEET));
  app.get('/console/assets/spq.js', hidden, async (_request, reply) => reply.type('text/javascript; charset=utf-8').header('cache-control', 'public, max-age=3600').send(SCRIPT));

  app.get('/console', hidden, async (request, reply) => {
    const context = await currentSession({ ...signInDeps, secure }, request);
    return reply.redirect(context ? HOME : '/console/sign-in', 303);
  });

  app.get('/console/sign-in', hidden, async (_request, reply) => send(reply, 200, 'Sign in', render.signInBody()));
  app.post('/console/sign-in', formRoute, async (request, reply) => {
    const form = request.body as FormBody;
    if (!sameOrigin(request, deps.config)) return send(reply, 403, 'Sign in', render.signInBody('This sign-in form did not come from this site. Open the sign-in page and try again.'));
    const result = await signIn(signInDeps, {
      email: form.email ?? '',
      password: form.password ?? '',
      address: request.clientAddress,
      userAgent: printableHeader(request.headers['user-agent']),
      knownBrowser: cookieValue(request, knownBrowserCookieName(secure)),
    });
    if (!result.ok) {
      request.log.info({ outcome: result.error.code }, 'account area: sign-in refused');
      return refusal(reply, result.error, 'Sign in', render.signInBody(result.error.detail, form.email ?? ''));
    }
    request.log.info({ account: result.value.session.accountId, session: result.value.session.sessionId }, 'account area: signed in');
    // One header each (Fastify appends every set-cookie; an array would be sent as one joined line).
    void reply.header('set-cookie', sessionCookie(result.value.token, deps.config.accountArea.sessionHours * 3600, secure));
    void reply.header('set-cookie', knownBrowserCookie(result.value.knownBrowser, secure));
    return reply.redirect(HOME, 303);
  });

  app.post('/console/sign-out', formRoute, async (request, reply) => {
    const context = await signedIn(request, reply, 'query');
    if (!context) return reply;
    const form = request.body as FormBody;
    await signOut(signInDeps, context.session, form.everywhere === 'yes');
    const keysRevoked = form.everywhere === 'yes' && form.revoke_keys === 'yes' ? await revokeEveryKey(holderDeps, context.session.accountId) : 0;
    request.log.info({ account: context.session.accountId, session: context.session.sessionId, keysRevoked }, 'account area: signed out');
    void reply.header('set-cookie', clearedSessionCookie(secure));
    return reply.redirect('/console/sign-in', 303);
  });

  app.get<{ Params: { token: string } }>('/console/welcome/:token', hidden, async (request, reply) => {
    const holder = await oneTimeLinkHolder(signInDeps, request.params.token);
    if (!holder.ok) return send(reply, 404, 'Link not valid', failure(holder.error));
    return send(reply, 200, 'Set your password', render.setPasswordBody(holder.value.email));
  });
  app.post<{ Params: { token: string } }>('/console/welcome/:token', formRoute, async (request, reply) => {
    const form = request.body as FormBody;
    if (!sameOrigin(request, deps.config)) return send(reply, 403, 'Form refused', html`<p>This form did not come from this site.</p>`);
    const result = await setPasswordWithLink(signInDeps, { token: request.params.token, password: form.password ?? '', confirmation: form.confirmation ?? '' });
    if (!result.ok) {
      if (result.error.code === 'not_found') return send(reply, 404, 'Link not valid', failure(result.error));
      const holder = await oneTimeLinkHolder(signInDeps, request.params.token);
      return send(reply, 422, 'Set your password', render.setPasswordBody(holder.ok ? holder.value.email : '', result.error.detail));
    }
    const keysRevoked = form.revoke_keys === 'yes' ? await revokeEveryKey(holderDeps, result.value.accountId) : 0;
    // The link proved who they are: they are signed in with a fresh session, as after signing in.
    const opened = await openSession(signInDeps, result.value.accountId, printableHeader(request.headers['user-agent']));
    request.log.info({ account: result.value.accountId, session: opened.session.sessionId, keysRevoked }, 'account area: password set, other sessions ended, signed in');
    void reply.header('set-cookie', sessionCookie(opened.token, deps.config.accountArea.sessionHours * 3600, secure));
    return reply.redirect(`${HOME}?welcome=1`, 303);
  });

  const kit = { signInDeps, holderDeps, secure, formRoute, hidden, send, signedIn, refusal };
  registerSelfService(app, deps, kit);
  registerBuyCredits(app, deps, kit);
  registerQualityConsole(app, deps, kit);

  // API keys
  const keysPage = async (reply: FastifyReply, context: WebContext & { email: string; section: Section }, status = 200, extra: { created?: Parameters<typeof render.keysBody>[3]; message?: ReturnType<typeof html> } = {}) => {
    const [keys, timeZone] = await Promise.all([deps.accounts.listKeys(context.session.accountId), timeZoneOf(holderDeps, context.session.accountId)]);
    return send(reply, status, 'API keys', render.keysBody(context.csrf, keys, timeZone, extra.created, extra.message), context);
  };
  app.get('/console/keys', hidden, async (request, reply) => {
    const context = await signedIn(request, reply, 'keys');
    return context ? keysPage(reply, context) : reply;
  });
  app.post('/console/keys', formRoute, async (request, reply) => {
    const context = await signedIn(request, reply, 'keys');
    if (!context) return reply;
    const form = request.body as FormBody;
    // A key acts for the account for as long as it lives: creating one asks for the password again.
    const confirmed = await confirmCurrentPassword(signInDeps, context.session.accountId, form.current_password ?? '');
    if (!confirmed.ok) {
      // Past the limit: the refusal alone (a refused guess costs no page of reads); a wrong password: the page again.
      if (confirmed.error.code === 'rate_limited') return refusal(reply, confirmed.error, 'API keys', failure(confirmed.error), context);
      return keysPage(reply, context, statusOf(confirmed.error.code), { message: failure(confirmed.error) });
    }
    // A reloaded result page sends the form again: each form creates one key at most (its id is
    // remembered a day, in the limiter every instance shares).
    const formId = /^[0-9a-f-]{36}$/.test(form.form_id ?? '') ? form.form_id : undefined;
    const once = formId && (await deps.limiter.hit(`key-form:${context.session.sessionId}:${formId}`, [{ name: 'key-form', limit: 1, windowSeconds: 86_400 }], deps.clock.now().getTime()));
    if (!once || !once.allowed) {
      return keysPage(reply, context, 409, { message: notice('error', 'This form was already sent, and its key was shown then. If you did not copy it, revoke it below and create another.') });
    }
    const created = await createOwnKey({ ...holderDeps, limiter: deps.limiter, limits: deps.config.holderLimits }, { accountId: context.session.accountId, name: form.name ?? '', sandbox: form.sandbox === 'yes' });
    if (!created.ok) {
      const retryAfter = created.error.extra?.retry_after_seconds;
      if (retryAfter !== undefined) void reply.header('retry-after', String(retryAfter));
      return keysPage(reply, context, statusOf(created.error.code), { message: failure(created.error) });
    }
    request.log.info({ account: context.session.accountId, key: created.value.key.keyId }, 'account area: key created');
    return keysPage(reply, context, 200, { created: created.value });
  });
  app.get<{ Params: { keyId: string } }>('/console/keys/:keyId/revoke', hidden, async (request, reply) => {
    const context = await signedIn(request, reply, 'keys');
    if (!context) return reply;
    const key = await ownKey(holderDeps, context.session.accountId, request.params.keyId);
    if (!key.ok) return send(reply, 404, 'Key not found', failure(key.error), context);
    return send(reply, 200, 'Revoke key', render.revokeBody(context.csrf, key.value), context);
  });
  app.post<{ Params: { keyId: string } }>('/console/keys/:keyId/revoke', formRoute, async (request, reply) => {
    const context = await signedIn(request, reply, 'keys');
    if (!context) return reply;
    const revoked = await revokeOwnKey(holderDeps, { accountId: context.session.accountId, keyId: request.params.keyId });
    if (!revoked.ok) return send(reply, 404, 'Key not found', failure(revoked.error), context);
    request.log.info({ account: context.session.accountId, key: revoked.value.keyId }, 'account area: key revoked');
    return keysPage(reply, context, 200, { message: notice('ok', `Key ${revoked.value.prefix}…${revoked.value.last4} is revoked.`) });
  });

  // Credits and settings
  const creditsPage = async (request: FastifyRequest, reply: FastifyReply, context: WebContext & { email: string; section: Section }, status = 200, message?: ReturnType<typeof html>) => {
    const pageNumber = pageOf(request);
    const [overview, timeZone, purchases] = await Promise.all([creditsOverview(holderDeps, context.session.accountId, pageNumber, PER_PAGE), timeZoneOf(holderDeps, context.session.accountId), accountPurchases(deps, context.session.accountId)]);
    return send(reply, status, 'Credits', render.creditsBody(context.csrf, overview, timeZone, TIME_ZONES, pageNumber, PER_PAGE, message, purchases), context);
  };
  app.get('/console/credits', hidden, async (request, reply) => {
    const context = await signedIn(request, reply, 'credits');
    return context ? creditsPage(request, reply, context) : reply;
  });
  app.post('/console/settings/time-zone', formRoute, async (request, reply) => {
    const context = await signedIn(request, reply, 'credits');
    if (!context) return reply;
    const set = await setTimeZone(holderDeps, { accountId: context.session.accountId, timeZone: (request.body as FormBody).time_zone ?? '' });
    return creditsPage(request, reply, context, set.ok ? 200 : 422, set.ok ? notice('ok', `Times are now shown in ${set.value}.`) : failure(set.error));
  });

  app.get('/console/overview', hidden, async (request, reply) => {
    const context = await signedIn(request, reply, 'overview');
    if (!context) return reply;
    const timeZone = await timeZoneOf(holderDeps, context.session.accountId);
    const [overview, recent] = await Promise.all([
      accountOverview(holderDeps, context.session.accountId, timeZone),
      queryHistory(deps, context.session.accountId, { page: 1, perPage: 5 }),
    ]);
    const welcome = (request.query as { welcome?: string }).welcome === '1' ? notice('ok', 'Your password is set and you are signed in.') : html``;
    return send(reply, 200, 'Overview', html`${welcome}${overviewBody(overview, recent, timeZone)}`, context);
  });

  // Queries
  app.get<{ Params: { queryId: string } }>('/console/queries/:queryId', hidden, async (request, reply) => {
    const context = await signedIn(request, reply, 'queries');
    if (!context) return reply;
    const [detail, timeZone, keys] = await Promise.all([
      queryDetail(deps, context.session.accountId, request.params.queryId),
      timeZoneOf(holderDeps, context.session.accountId),
      deps.accounts.listKeys(context.session.accountId),
    ]);
    if (!detail.ok) return send(reply, 404, 'Query not found', html`${failure(detail.error)}<p><a href="/console/queries">All queries</a></p>`, context);
    const key = keys.find((k) => k.keyId === detail.value.keyId);
    return send(reply, 200, 'Query', queryBody(context.csrf, detail.value, timeZone, publicBaseUrl(deps.config), key), context);
  });
  app.get('/console/queries', hidden, async (request, reply) => {
    const context = await signedIn(request, reply, 'queries');
    if (!context) return reply;
    const pageNumber = pageOf(request);
    const [history, timeZone] = await Promise.all([
      queryHistory(deps, context.session.accountId, { page: pageNumber, perPage: PER_PAGE }),
      timeZoneOf(holderDeps, context.session.accountId),
    ]);
    return send(reply, 200, 'Queries', render.queriesBody(history, timeZone), context);
  });

  app.get('/console/suggest', hidden, async (request, reply) => {
    const context = await currentSession({ ...signInDeps, secure }, request);
    if (!context) return reply.code(401).header('cache-control', 'no-store').send({ suggestions: [] });
    // Counted in the account's per-minute window (its keys' and pages' too), not the hourly one:
    // typing a place name must not use up the hour's queries, and a flood stops at the minute's.
    const minute = accountPolicies(deps.config.rateLimits, 'free').filter((p) => p.name === 'minute');
    const decision = await deps.limiter.hit(accountRateKey(context.session.accountId), minute, deps.clock.now().getTime());
    if (!decision.allowed) return sendError(reply, rateLimitedError(decision, 'Too many place suggestions for this account'));
    const { q = '', level = 'suburb' } = request.query as { q?: string; level?: string };
    const searchLevel = (['suburb', 'postcode', 'sa2', 'lga', 'state'] as const).find((l) => l === level);
    if (q.trim().length < 2 || searchLevel === undefined) return reply.header('cache-control', 'no-store').send({ suggestions: [] });
    const found = searchGeography(deps, { query: q.slice(0, 100), level: searchLevel, limit: 10 });
    const labels = found.results.map((r) => (searchLevel === 'postcode' ? r.postcode : searchLevel === 'lga' ? r.lga : searchLevel === 'state' ? r.state : r.suburb_id));
    return reply.header('cache-control', 'no-store').send({ suggestions: [...new Set(labels)] });
  });

  app.get('/console/query', hidden, async (request, reply) => {
    const context = await signedIn(request, reply, 'query');
    return context ? send(reply, 200, 'New query', render.builderForm(context.csrf, request.query as FormBody), context) : reply;
  });
  /** The builder again, with the query as sent and why it did not run (429s say when to retry). */
  const builderRefused = (reply: FastifyReply, context: WebContext & { email: string; section: Section }, form: FormBody, error: AppError) =>
    refusal(reply, error, 'New query', render.builderForm(context.csrf, form, `${builderError(deps, error.detail)}${error.code === 'insufficient_credits' ? ` ${render.GET_CREDITS}` : ''}`), context);

  app.post('/console/query/preview', formRoute, async (request, reply) => {
    const context = await signedIn(request, reply, 'query');
    if (!context) return reply;
    const form = request.body as FormBody;
    const { refused, credits } = await rateLimited(context.session.accountId);
    if (refused) return builderRefused(reply, context, form, refused);
    const test = testMode(form);
    // The page says itself what test mode and a short balance mean (with the way to credits), so
    // the preview is asked as if the balance were ample and the API's sandbox sentence (always the
    // first warning) is left out; the other warnings are told in the form's words.
    const preview = await previewQuery(deps, { accountId: context.session.accountId, creditsRemaining: Number.MAX_SAFE_INTEGER, sandbox: test }, queryFromForm(form));
    if (!preview.ok) return builderRefused(reply, context, form, preview.error);
    const warnings = (test ? preview.value.warnings.slice(1) : preview.value.warnings).map(inFormWords);
    return send(reply, 200, 'Check and run', render.previewBody(context.csrf, form, { ...preview.value, warnings }, randomUUID(), credits.creditsRemaining, test), context);
  });
  app.post('/console/query/execute', formRoute, async (request, reply) => {
    const context = await signedIn(request, reply, 'query');
    if (!context) return reply;
    const form = request.body as FormBody;
    const { refused } = await rateLimited(context.session.accountId);
    if (refused) return builderRefused(reply, context, form, refused);
    // The preview page gives each form a UUID; anything else (an API key pasted in, above all) is never stored as an idempotency key.
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(form.idempotency_key ?? '')) {
      return builderRefused(reply, context, form, appError('bad_request', 'This form was not sent by the price page. See the price again, then run the query from there.'));
    }
    if (!deps.drain.enter()) return builderRefused(reply, context, form, appError('service_unavailable', 'The server is restarting; submit the form again in a few seconds (you will not be charged twice).'));
    try {
      const outcome = await executeQuery(deps, request.log, {
        accountId: context.session.accountId,
        query: queryFromForm(form),
        idempotencyKey: form.idempotency_key,
        requestId: String(request.id),
        sandbox: testMode(form),
      });
      if (!outcome.ok) return builderRefused(reply, context, form, outcome.error);
      request.log.info({ account: context.session.accountId, query: outcome.value.query_id }, 'account area: query run');
      return send(reply, 200, 'Query ready', render.executedBody(outcome.value, await timeZoneOf(holderDeps, context.session.accountId)), context);
    } finally {
      deps.summaries?.forget(context.session.accountId);
      deps.drain.leave();
    }
  });

  // Every other /console address is a page too, never the API's JSON 404.
  const notFoundPage = async (request: FastifyRequest, reply: FastifyReply) => {
    const context = await currentSession({ ...signInDeps, secure }, request);
    const account = context && (await deps.accounts.getAccount(context.session.accountId));
    const body = html`<p>There is no page at <code class="id">${request.url.split('?')[0]}</code>.</p><p><a href="${context ? HOME : '/console/sign-in'}">${context ? 'Go to the overview' : 'Sign in'}</a></p>`;
    return send(reply, 404, 'Page not found', body, context && { ...context, email: account?.email ?? '', section: 'other' });
  };
  app.get('/console/*', hidden, notFoundPage);
  app.post('/console/*', formRoute, notFoundPage);
  app.route({ method: ['PUT', 'PATCH', 'DELETE'], url: '/console/*', ...hidden, handler: notFoundPage });
}
