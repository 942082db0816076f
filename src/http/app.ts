import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { LogController, type FastifyInstance, type FastifyReply } from 'fastify';
import { Registry } from 'prom-client';
import { KeyCache } from '../app/key-cache.ts';
import { InProcessRevocations } from '../app/revocations.ts';
import { SummaryCache } from '../app/summary-cache.ts';
import { randomBase62 } from '../core/keys.ts';
import { handleError, handleNotFound, sendError } from './errors.ts';
import { appError } from '../core/errors.ts';
import { clientAddressResolver } from './client-address.ts';
import { clientErrorHandler } from './client-errors.ts';
import { DEFAULT_BODY_LIMIT } from './body-limits.ts';
import { jsonShapeProblem } from './json-shape.ts';
import { loggerOptions } from './logging.ts';
import { refuseUnreadableBody } from './body-encoding.ts';
import { countingLimiter, createHttpMetrics, UNMATCHED_ROUTE } from './metrics.ts';
import { openApiOptions } from './openapi.ts';
import { registerReference } from './reference/routes.ts';
import { authenticationHook } from './plugins/authenticate.ts';
import { refuseKeyInBody, refuseKeyInUrl } from './plugins/key-guard.ts';
import { refuseControlCharacters } from './plugins/text-guard.ts';
import { registerBundles } from './routes/account/bundles.ts';
import { registerCredits } from './routes/account/credits.ts';
import { registerStripeWebhook } from './routes/webhooks/stripe.ts';
import { registerDownload } from './routes/downloads/file.ts';
import { registerSearch } from './routes/geography/search.ts';
import { registerVariables } from './routes/geography/variables.ts';
import { registerCodebook } from './routes/geography/codebook.ts';
import { registerHealthz } from './routes/health/healthz.ts';
import { registerMetrics } from './routes/health/metrics.ts';
import { registerReadyz } from './routes/health/readyz.ts';
import { registerExecute } from './routes/query/execute.ts';
import { registerGetQuery } from './routes/query/get.ts';
import { registerHistory } from './routes/query/history.ts';
import { registerPreview } from './routes/query/preview.ts';
import type { Api, AppDeps } from './types.ts';
import { registerAccountArea } from './web/account-area.ts';
import { registerQualityArea, registerQualityPublic } from './web/quality/routes.ts';
import { HSTS_VALUE, servedOverTls } from './web/session.ts';
import { schemaErrorFormatter, validatorCompiler } from './validation.ts';
import type { FastifyHttpOptions, FastifyServerOptions } from 'fastify';
import type { Server } from 'node:http';
import type { HttpMetrics } from './metrics.ts';

export type { AppDeps } from './types.ts';

/**
 * The HTTP API over injected ports. Steps run in this order for every request: request id and
 * key-in-URL guard → (authenticated routes) one gate: declared body size, key check, failed-auth
 * and key rate limits → body read and parsed (route body limit, JSON shape) → key-in-body guard →
 * schema validation → handler; errors from any step go to one handler. Nothing reads a body
 * before the key is known good.
 */
export function buildApp(given: AppDeps): FastifyInstance {
  const metrics = createHttpMetrics(given.metricsRegistry ?? new Registry(), { executesInFlight: () => given.drain.inFlight, passwordLoad: () => given.passwords.load() });
  const deps: AppDeps & { summaries: SummaryCache; keyRevocations: NonNullable<AppDeps['keyRevocations']> } = {
    ...given,
    summaries: given.summaries ?? new SummaryCache(),
    keyRevocations: given.keyRevocations ?? new InProcessRevocations(),
    limiter: countingLimiter(given.limiter, metrics),
    executeObserver: metrics,
  };
  const app = Fastify(serverOptions(deps, metrics)).withTypeProvider<TypeBoxTypeProvider>() as unknown as Api;

  registerJsonParser(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setErrorHandler(handleError);
  app.setNotFoundHandler(handleNotFound);
  app.decorateRequest('principal', null);
  const clientAddressOf = clientAddressResolver(deps.config.trustedProxies);
  app.decorateRequest('clientAddress', {
    getter(this: { socket: { remoteAddress?: string | undefined }; headers: Record<string, string | string[] | undefined> }) {
      return clientAddressOf(this.socket.remoteAddress, this.headers);
    },
  });
  // API keys held in memory by their keyed hash; revocations announced anywhere drop them.
  const keys = new KeyCache((keyHash) => deps.accounts.findKeyByHash(keyHash), { recheckMs: deps.config.keyRecheckMs });
  const stopListening = deps.keyRevocations.listen(keys);
  app.addHook('onClose', async () => stopListening());

  const hsts = servedOverTls(deps.config.publicBaseUrl);
  // These hooks run on every request: callback style, as no promise is needed (key-guard.ts).
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    everyResponseHeaders(reply, hsts);
    // Every answer is one account's (balances, prices, results, errors): no cache keeps it. A
    // route that may be cached says so itself (the account area's assets, the API reference's page).
    reply.header('cache-control', 'no-store');
    refuseKeyInUrl(request, reply, done);
  });
  const accessLog = accessLogger(app);
  app.addHook('onResponse', (request, reply, done) => {
    // The three fields the req serializer reads (it redacts the URL), not the request itself.
    const req = { method: request.method, url: request.url, ip: request.clientAddress };
    accessLog.info({ reqId: request.id, req, status: reply.statusCode, ms: Math.round(reply.elapsedTime * 10) / 10 }, 'request');
    // The route pattern, never the URL: ids and tokens stay out of labels.
    metrics.observeRequest(request.method, request.routeOptions.url ?? UNMATCHED_ROUTE, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
  app.addHook('preParsing', refuseUnreadableBody);
  app.addHook('preValidation', refuseKeyInBody);
  app.addHook('preHandler', refuseControlCharacters);

  void app.register(swagger, openApiOptions());

  void app.register(async (open: Api) => {
    registerHealthz(open);
    registerReadyz(open, deps);
    registerDownload(open, deps);
    open.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
    registerReference(open, { json: () => app.swagger(), yaml: () => app.swagger({ yaml: true }) });
    registerMetrics(open, deps, metrics);
    registerQualityPublic(open, deps);
  });

  // Stripe's webhook: its own scope, as it reads the body as the bytes that were signed.
  void app.register(async (webhooks: Api) => registerStripeWebhook(webhooks, deps));

  // The account area: its own scope (form bodies, session cookies, HTML pages).
  void app.register(async (web: Api) => registerAccountArea(web, deps));

  void app.register(async (authenticated: Api) => {
    authenticated.addHook('onRequest', authenticationHook(deps, deps.summaries, keys, app.log));
    registerPreview(authenticated, deps);
    registerExecute(authenticated, deps);
    registerHistory(authenticated, deps);
    registerGetQuery(authenticated, deps);
    registerCredits(authenticated, deps);
    registerBundles(authenticated, deps);
    registerSearch(authenticated, deps);
    registerVariables(authenticated, deps);
    registerCodebook(authenticated, deps);
    registerQualityArea(authenticated, deps);
  });

  return app as unknown as FastifyInstance;
}

/**
 * The access line's logger: the service's (same stream, level and serializers) without the
 * redaction paths, as the line has a fixed shape that holds none of them (no headers, no body;
 * the req serializer redacts the URL), so no redaction pass runs on every request. The request
 * id goes in the line itself, where request.log's binding would put it.
 */
function accessLogger(app: Api) {
  return app.log.child({}, { redact: [] });
}

/** The server's options: logging, request ids, body and time limits, and the router's own errors. */
function serverOptions(deps: AppDeps, metrics: HttpMetrics) {
  return {
    logger: loggerOptions(deps.logger),
    genReqId: () => `req_${randomBase62(16)}`,
    requestIdHeader: false,
    // One access line per request (onResponse below) instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    schemaErrorFormatter,
    // Routes without a JSON body get a small limit; the query routes set their own (QUERY_BODY_LIMIT).
    bodyLimit: DEFAULT_BODY_LIMIT,
    // A client must send its whole request within these (slow bodies no longer hold a connection).
    requestTimeout: deps.config.requestTimeoutMs,
    http: { headersTimeout: Math.min(deps.config.headersTimeoutMs, deps.config.requestTimeoutMs), connectionsCheckingInterval: 1000 },
    // Download tokens are longer than Fastify's default limit of 100 characters per path parameter.
    routerOptions: { maxParamLength: 1000 },
    // Requests in flight when the server closes are finished (graceful shutdown); new ones get 503.
    return503OnClosing: true,
    clientErrorHandler: clientErrorHandler((status) => metrics.observeRequest('UNPARSED', UNMATCHED_ROUTE, status, 0), servedOverTls(deps.config.publicBaseUrl)),
    // Errors the router raises before any hook (bad percent-encoding, an over-long path segment)
    // get the contract's body and request id too, and never echo the URL (it may hold a signature).
    frameworkErrors: answerFrameworkError(deps, metrics),
  } satisfies FastifyHttpOptions<Server>;
}

/** A router error raised before any hook: answered in the contract's shape, logged and counted here. */
function answerFrameworkError(deps: AppDeps, metrics: HttpMetrics): NonNullable<FastifyServerOptions['frameworkErrors']> {
  return (error, request, reply) => {
    reply.header('x-request-id', request.id);
    everyResponseHeaders(reply, servedOverTls(deps.config.publicBaseUrl));
    const detail =
      error.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? 'A path segment is longer than 1,000 characters. Use the download_url exactly as the API returned it, and identifiers as documented.'
        : 'The URL is not validly percent-encoded. Encode each path segment (encodeURIComponent) and retry.';
    void sendError(reply, appError('bad_request', detail));
    // No hook runs for these requests: log and count them here, by method and no route.
    request.log.info({ req: { method: request.method, url: '(not logged: malformed)' }, status: 400 }, 'request');
    metrics.observeRequest(request.method, UNMATCHED_ROUTE, 400, 0);
  };
}

/**
 * Headers of every answer: no content sniffing (a JSON error or a csv is never run as a page),
 * and, when users reach the service over https (SPQ_PUBLIC_BASE_URL), HSTS so the browser never
 * tries plain http first (TLS ends at the balancer, which may add its own; the same value is harmless).
 */
function everyResponseHeaders(reply: FastifyReply, hsts: boolean): void {
  reply.header('x-content-type-options', 'nosniff');
  if (hsts) reply.header('strict-transport-security', HSTS_VALUE);
}

/** JSON bodies: shape first (depth, key count), then Fastify's own parser (prototype-poisoning safe). */
function registerJsonParser(app: Api): void {
  const defaultJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const problem = jsonShapeProblem(body as string);
    if (problem !== undefined) return done(Object.assign(new Error(problem), { statusCode: 400, code: 'SPQ_JSON_SHAPE' }), undefined);
    return defaultJson(request, body as string, done);
  });
}
