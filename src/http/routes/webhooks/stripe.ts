import { receivePaymentWebhook } from '../../../app/payments.ts';
import { sendError } from '../../errors.ts';
import type { Api, AppDeps } from '../../types.ts';

/** Stripe's events are small (a few kB); this leaves room for large line-item lists. */
const WEBHOOK_BODY_LIMIT = 512 * 1024;

/**
 * POST /webhooks/stripe, in a scope of its own: the body is kept as the bytes Stripe signed (the
 * signature covers them exactly, so no JSON parser may touch them first). A bad signature is
 * 400; a verified event is recorded and applied once, and answered 200 however often it comes.
 * Not in the OpenAPI document: Stripe calls it, not API clients.
 */
export function registerStripeWebhook(app: Api, deps: AppDeps): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT }, (_request, body, done) => done(null, body));
  const opsLog = {
    info: (fields: Record<string, unknown>, message: string) => app.log.info(fields, message),
    error: (fields: Record<string, unknown>, message: string) => app.log.error(fields, message),
  };
  app.post('/webhooks/stripe', { schema: { hide: true }, bodyLimit: WEBHOOK_BODY_LIMIT }, async (request, reply) => {
    const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    const signature = request.headers['stripe-signature'];
    const received = await receivePaymentWebhook(deps, opsLog, raw, typeof signature === 'string' ? signature : undefined);
    if (!received.ok) return sendError(reply, received.error);
    return reply.code(200).send({ received: true, event_id: received.value.eventId, status: received.value.status });
  });
}
