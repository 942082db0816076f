/**
 * A local stand-in for Stripe's API, for tests (Stripe cannot be reached from the test machines).
 * The official library is pointed at it with its host/port/protocol options (SPQ_STRIPE_API_URL).
 * It answers the two calls spq makes with the documented shapes (POST /v1/checkout/sessions,
 * GET /v1/payment_intents/:id with latest_charge expanded), serves a checkout page a browser can
 * "pay" on (GET/POST /pay/:id), and sends webhook events signed by the library's own test helper
 * (stripe.webhooks.generateTestHeaderString) to the service, as Stripe would.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';

export const WEBHOOK_SECRET = 'whsec_test_standin_0123456789abcdef';
export const SECRET_KEY = 'sk_test_standin_0123456789';

const signer = new Stripe(SECRET_KEY);

export interface StandInSession {
  readonly id: string;
  readonly paymentIntent: string;
  readonly accountId: string;
  readonly amount: number;
  readonly currency: string;
  readonly metadata: Record<string, string>;
  readonly successUrl: string;
  readonly cancelUrl: string;
  readonly email: string;
}

export interface StripeStandIn {
  readonly url: string;
  /** Every API request the library made: method, path, the Authorization header and the form body. */
  readonly requests: { method: string; path: string; authorization: string | undefined; form: Record<string, string> }[];
  readonly sessions: Map<string, StandInSession>;
  /** A webhook event of Stripe's shape: its JSON text. */
  event(type: string, object: Record<string, unknown>, id?: string): string;
  /** Stripe-Signature for a payload, signed now (or at `timestamp`, seconds) with `secret`. */
  sign(payload: string, options?: { timestamp?: number; secret?: string }): string;
  /** POSTs a payload to the service's webhook, signed unless a header is given. */
  deliver(payload: string, signature?: string | null): Promise<Response>;
  /** The checkout.session.completed event of a session, as Stripe sends it once paid. */
  completed(session: StandInSession, overrides?: Record<string, unknown>): string;
  close(): Promise<void>;
}

const readBody = (request: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    let text = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (text += chunk));
    request.on('end', () => resolve(text));
    request.on('error', reject);
  });

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

export function checkoutSessionObject(session: StandInSession, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: session.id,
    object: 'checkout.session',
    mode: 'payment',
    status: 'complete',
    payment_status: 'paid',
    amount_total: session.amount,
    currency: session.currency,
    client_reference_id: session.accountId,
    customer_email: session.email,
    payment_intent: session.paymentIntent,
    metadata: session.metadata,
    ...overrides,
  };
}

export async function startStripeStandIn(webhookUrl: () => string): Promise<StripeStandIn> {
  const requests: StripeStandIn['requests'] = [];
  const sessions = new Map<string, StandInSession>();
  let base = '';

  const event = (type: string, object: Record<string, unknown>, eventId = id('evt')) =>
    JSON.stringify({ id: eventId, object: 'event', api_version: '2025-01-01', created: Math.floor(Date.now() / 1000), livemode: false, pending_webhooks: 1, type, data: { object } }, null, 2);
  const sign = (payload: string, options: { timestamp?: number; secret?: string } = {}) =>
    signer.webhooks.generateTestHeaderString({ payload, secret: options.secret ?? WEBHOOK_SECRET, ...(options.timestamp !== undefined ? { timestamp: options.timestamp } : {}) });
  const deliver = (payload: string, signature: string | null = sign(payload)) =>
    fetch(webhookUrl(), { method: 'POST', headers: { 'content-type': 'application/json; charset=utf-8', ...(signature === null ? {} : { 'stripe-signature': signature }) }, body: payload });
  const completed = (session: StandInSession, overrides: Record<string, unknown> = {}) => event('checkout.session.completed', checkoutSessionObject(session, overrides));

  const server: Server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', base);
      const text = await readBody(request);
      const json = (status: number, body: unknown) => response.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req') }).end(JSON.stringify(body));
      if (url.pathname.startsWith('/v1/')) {
        const form = Object.fromEntries(new URLSearchParams(text));
        requests.push({ method: request.method ?? '', path: url.pathname, authorization: request.headers.authorization, form });
      }
      if (request.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
        const form = Object.fromEntries(new URLSearchParams(text));
        const metadata = Object.fromEntries(Object.entries(form).filter(([k]) => /^metadata\[/.test(k)).map(([k, v]) => [k.slice(9, -1), v]));
        const session: StandInSession = {
          id: id('cs_test'),
          paymentIntent: id('pi'),
          accountId: form.client_reference_id ?? '',
          amount: Number(form['line_items[0][price_data][unit_amount]']),
          currency: form['line_items[0][price_data][currency]'] ?? '',
          metadata,
          successUrl: form.success_url ?? '',
          cancelUrl: form.cancel_url ?? '',
          email: form.customer_email ?? '',
        };
        sessions.set(session.id, session);
        return json(200, { ...checkoutSessionObject(session), status: 'open', payment_status: 'unpaid', payment_intent: null, url: `${base}/pay/${session.id}`, success_url: session.successUrl, cancel_url: session.cancelUrl });
      }
      const intent = /^\/v1\/payment_intents\/(pi_[0-9a-f]+)$/.exec(url.pathname);
      if (request.method === 'GET' && intent) {
        const charge = { id: id('ch'), object: 'charge', payment_intent: intent[1], receipt_url: `${base}/receipts/${intent[1]}` };
        return json(200, { id: intent[1], object: 'payment_intent', status: 'succeeded', latest_charge: url.searchParams.get('expand[0]') === 'latest_charge' ? charge : charge.id });
      }
      const pay = /^\/pay\/(cs_test_[0-9a-f]+)$/.exec(url.pathname);
      const session = pay ? sessions.get(pay[1]!) : undefined;
      if (session && request.method === 'GET') {
        return response
          .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
          .end(`<!doctype html><html lang="en"><head><title>Stripe stand-in checkout</title></head><body><main><h1>Pay ${session.amount / 100} ${session.currency.toUpperCase()}</h1><form method="post"><button type="submit">Pay</button></form><a href="${session.cancelUrl}">Back</a></main></body></html>`);
      }
      if (session && request.method === 'POST') {
        // As Stripe does: the event is sent; the browser goes back to the success page.
        const delivered = await deliver(completed(session));
        if (!delivered.ok) return json(502, { error: `webhook answered ${delivered.status}` });
        return response.writeHead(303, { location: session.successUrl.replace('{CHECKOUT_SESSION_ID}', session.id) }).end();
      }
      if (url.pathname.startsWith('/receipts/')) return response.writeHead(200, { 'content-type': 'text/plain' }).end('receipt');
      return json(404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${request.method}: ${url.pathname})` } });
    })().catch((error: unknown) => response.writeHead(500).end(String(error)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('stand-in has no port');
  base = `http://127.0.0.1:${address.port}`;
  return {
    url: base,
    requests,
    sessions,
    event,
    sign,
    deliver,
    completed,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
