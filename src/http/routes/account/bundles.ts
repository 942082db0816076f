import { bundleOffers } from '../../../app/payments.ts';
import { BundlesResult } from '../../../wire/account.ts';
import { authenticatedErrors, bearerSecurity } from '../../../wire/common.ts';
import type { Api, AppDeps } from '../../types.ts';

export const schema = {
  operationId: 'getBundles',
  summary: 'Bundles on sale (extension)',
  description:
    'The bundles this service sells: credits, days of the paid tier, price (in the smallest unit of the currency, tax included). Holders buy them in the account area (`buy_url`) when the operator takes payment through Stripe, else from the operator. Costs nothing; counts against the rate limit like every authenticated call.',
  tags: ['account'],
  security: bearerSecurity,
  response: { 200: BundlesResult, ...authenticatedErrors() },
} as const;

export function registerBundles(app: Api, deps: AppDeps): void {
  app.get('/account/bundles', { schema }, async (_request, reply) => reply.code(200).send(bundleOffers(deps)));
}
