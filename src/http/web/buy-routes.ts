import type { FastifyReply } from 'fastify';
import { accountPurchases, BUY_PATH, selfServicePurchase, startBundleCheckout } from '../../app/payments.ts';
import { ledgerCsv, purchasesCsv } from '../../app/web/export.ts';
import { timeZoneOf } from '../../app/web/holder.ts';
import type { Config } from '../../config.ts';
import type { Api, AppDeps } from '../types.ts';
import { notice, page } from './html.ts';
import { buyBody, cancelledBody, paidBody } from './pages/buy.ts';
import type { FormBody } from './pages/forms.ts';
import type { AccountAreaKit } from './self-service-routes.ts';
import { pageHeaders } from './session.ts';

/**
 * Where the "Buy credits" form may send the browser: this site, and the provider's checkout
 * (Chromium applies form-action to the redirect after the POST too). Stripe's Checkout pages are
 * on checkout.stripe.com; a test's stand-in serves them from its own address.
 */
export function checkoutOrigins(config: Pick<Config, 'payments'>): string {
  const apiUrl = config.payments.stripe?.apiUrl;
  return apiUrl === undefined ? 'https://checkout.stripe.com' : new URL(apiUrl).origin;
}

const csvReply = (reply: FastifyReply, name: string, body: string) =>
  reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${name}"`).header('cache-control', 'no-store').send(body);

/**
 * The holder's purchases (/console/buy…): the catalogue with a Buy button per bundle (or the
 * operator's address when payments are off), the redirect to the provider's checkout, the pages
 * it sends the holder back to, and the csv exports of the ledger and the purchases.
 */
export function registerBuyCredits(app: Api, deps: AppDeps, kit: AccountAreaKit): void {
  const { send, signedIn, refusal } = kit;
  const canBuy = selfServicePurchase(deps);
  const buyCsp = `default-src 'self'; form-action 'self' ${checkoutOrigins(deps.config)}; frame-ancestors 'none'; base-uri 'none'; object-src 'none'`;

  app.get(BUY_PATH, kit.hidden, async (request, reply) => {
    const context = await signedIn(request, reply, 'buy');
    if (!context) return reply;
    const summary = await deps.accounts.credits(context.session.accountId, deps.clock.now());
    const body = buyBody(context.csrf, summary, deps.config.payments.bundles, canBuy, deps.config.payments.operatorContact);
    return pageHeaders(reply).header('content-security-policy', buyCsp).code(200).send(page('Buy credits', body, context));
  });

  app.post(BUY_PATH, kit.formRoute, async (request, reply) => {
    const context = await signedIn(request, reply, 'buy');
    if (!context) return reply;
    const started = await startBundleCheckout(deps, { accountId: context.session.accountId, bundleId: (request.body as FormBody).bundle_id ?? '' });
    if (!started.ok) {
      const summary = await deps.accounts.credits(context.session.accountId, deps.clock.now());
      return refusal(reply, started.error, 'Buy credits', buyBody(context.csrf, summary, deps.config.payments.bundles, canBuy, deps.config.payments.operatorContact, notice('error', started.error.detail)), context);
    }
    request.log.info({ account: context.session.accountId }, 'account area: checkout started');
    return reply.redirect(started.value.url, 303);
  });

  app.get(`${BUY_PATH}/success`, kit.hidden, async (request, reply) => {
    const context = await signedIn(request, reply, 'buy');
    if (!context) return reply;
    const accountId = context.session.accountId;
    const checkout = (request.query as { checkout?: unknown }).checkout;
    const now = deps.clock.now();
    const [summary, purchases, bundles, timeZone] = await Promise.all([deps.accounts.credits(accountId, now), accountPurchases(deps, accountId), deps.accounts.bundles(accountId), timeZoneOf(kit.holderDeps, accountId)]);
    const purchase = typeof checkout === 'string' ? purchases.find((p) => p.checkoutId === checkout) : undefined;
    const paidUntil = bundles.filter((b) => b.startsAt <= now && now < b.expiresAt).reduce<Date | null>((latest, b) => (latest === null || b.expiresAt > latest ? b.expiresAt : latest), null);
    return send(reply, 200, purchase?.grantedAt ? 'Thank you' : 'Payment received', paidBody(summary, purchase, paidUntil, timeZone), context);
  });

  app.get(`${BUY_PATH}/cancel`, kit.hidden, async (request, reply) => {
    const context = await signedIn(request, reply, 'buy');
    return context ? send(reply, 200, 'Payment cancelled', cancelledBody(), context) : reply;
  });

  app.get('/console/export/ledger.csv', kit.hidden, async (request, reply) => {
    const context = await signedIn(request, reply, 'credits');
    return context ? csvReply(reply, 'spq-ledger.csv', await ledgerCsv(deps, context.session.accountId)) : reply;
  });
  app.get('/console/export/purchases.csv', kit.hidden, async (request, reply) => {
    const context = await signedIn(request, reply, 'credits');
    return context ? csvReply(reply, 'spq-purchases.csv', await purchasesCsv(deps, context.session.accountId)) : reply;
  });
}
