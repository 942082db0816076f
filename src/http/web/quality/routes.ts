/**
 * The quality pages' routes. The release's page, /quality, is public (no account, no key); an
 * area's page is behind the API key like search (/quality/areas/{level}/{id}) and, for people,
 * behind the account area's session (/console/quality/areas/{level}/{id}: the same path under /console). Free of credits. Each page
 * is made once per release and kept (the release is immutable): later requests are a lookup.
 */
import { withServedRelease } from '../../../app/served-release.ts';
import type { FastifyReply } from 'fastify';
import { GEOGRAPHY_LEVELS, type GeographyLevel } from '../../../core/dataset.ts';
import { appError, type AppError } from '../../../core/errors.ts';
import type { Result } from '../../../core/result.ts';
import { areaQuality, releaseQuality } from '../../../app/quality/pages.ts';
import type { PoolRelease } from '../../../ports/pool-release.ts';
import { sendError } from '../../errors.ts';
import type { Api, AppDeps } from '../../types.ts';
import { html, type Html } from '../html.ts';
import type { AccountAreaKit } from '../self-service-routes.ts';
import { pageHeaders } from '../session.ts';
import { areaQualityBody, qualityDocument, releaseQualityBody } from './pages.ts';

/** A page made for one release: its title and body. */
interface Made {
  readonly title: string;
  readonly body: Html;
}

const MAX_PAGES = 2000;
const CACHES = new WeakMap<PoolRelease, Map<string, Promise<Result<Made, AppError>>>>();

/** The release's page of `key`, made once (a failure is not kept). */
function cached(pools: PoolRelease, key: string, make: () => Promise<Result<Made, AppError>>): Promise<Result<Made, AppError>> {
  let pages = CACHES.get(pools);
  if (!pages) CACHES.set(pools, (pages = new Map()));
  const hit = pages.get(key);
  if (hit) return hit;
  const made = make();
  if (pages.size >= MAX_PAGES) pages.delete(pages.keys().next().value!);
  pages.set(key, made);
  void made.then((r) => !r.ok && pages.delete(key), () => pages.delete(key));
  return made;
}

const levelOf = (level: string): GeographyLevel | undefined => GEOGRAPHY_LEVELS.find((l) => l === level);

/** An area's page: its model made into HTML once per release. */
export function areaPage(served: AppDeps, level: string, id: string): Promise<Result<Made, AppError>> {
  // The release serving now, for the page and as its cache's key (a server may switch releases once).
  const deps = withServedRelease(served);
  const known = levelOf(level);
  if (known === undefined || id.length === 0 || id.length > 200) return Promise.resolve({ ok: false, error: appError('not_found', `No quality page for ${level} "${id.slice(0, 200)}": the level is one of ${GEOGRAPHY_LEVELS.join(', ')}.`) });
  return cached(deps.pools, `area|${known}|${id.toLowerCase()}`, async () => {
    const model = await areaQuality(deps, known, id);
    return model.ok ? { ok: true, value: { title: `${model.value.canonical}: the records beside the census`, body: areaQualityBody(model.value) } } : model;
  });
}

/** The release's page, made once per release. */
export function releasePage(served: Pick<AppDeps, 'pools'>, options: { readonly offline?: boolean } = {}): Promise<Result<Made, AppError>> {
  const deps = withServedRelease(served);
  const make = async (): Promise<Result<Made, AppError>> => {
    const model = await releaseQuality(deps);
    return model.ok ? { ok: true, value: { title: `Release ${model.value.release.version}: fit to the census`, body: releaseQualityBody(model.value, options) } } : model;
  };
  return options.offline ? make() : cached(deps.pools, 'release', make);
}

const pageReply = (reply: FastifyReply, cache: 'public' | 'private'): FastifyReply => pageHeaders(reply).header('cache-control', `${cache}, max-age=300`);

/** GET /quality: the release's page, public. */
export function registerQualityPublic(open: Api, deps: AppDeps): void {
  open.get('/quality', { schema: { hide: true } }, async (_request, reply) => {
    const page = await releasePage(deps);
    if (!page.ok) return sendError(reply, page.error);
    return pageReply(reply, 'public').send(qualityDocument(page.value.title, page.value.body));
  });
}

/** GET /quality/areas/{level}/{id}: an area's page, with the API key (like search; no credits). */
export function registerQualityArea(authenticated: Api, deps: AppDeps): void {
  authenticated.get<{ Params: { level: string; id: string } }>('/quality/areas/:level/:id', { schema: { hide: true } }, async (request, reply) => {
    const page = await areaPage(deps, request.params.level, request.params.id);
    if (!page.ok) return sendError(reply, page.error);
    return pageReply(reply, 'private').send(qualityDocument(page.value.title, page.value.body));
  });
}

/** GET /console/quality/areas/{level}/{id}: the same page in the account area, signed in. */
export function registerQualityConsole(app: Api, deps: AppDeps, kit: AccountAreaKit): void {
  app.get<{ Params: { level: string; id: string } }>('/console/quality/areas/:level/:id', kit.hidden, async (request, reply) => {
    const context = await kit.signedIn(request, reply, 'other');
    if (!context) return reply;
    const page = await areaPage(deps, request.params.level, request.params.id);
    if (!page.ok) return kit.refusal(reply, page.error, 'No such place', html`<p>${page.error.detail}</p><p><a href="/console/query">Back to the query builder</a></p>`, context);
    return kit.send(reply, 200, page.value.title, page.value.body, context);
  });
}
