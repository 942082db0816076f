import { accountCredits } from '../../../app/credits.ts';
import { CreditsResult } from '../../../wire/account.ts';
import { authenticatedErrors, bearerSecurity } from '../../../wire/common.ts';
import { principalOf } from '../../plugins/authenticate.ts';
import type { Api, AppDeps, ReplyOf, RequestOf } from '../../types.ts';

export const schema = {
  operationId: 'getCredits',
  summary: 'Credit balance and tier',
  description: "The key's account: credits remaining, tier, and when the free weekly allowance renews. Costs nothing; counts against the rate limit like every authenticated call.",
  tags: ['account'],
  security: bearerSecurity,
  response: { 200: CreditsResult, ...authenticatedErrors() },
} as const;

/** Read from the store, not the authentication's short-lived cache: the balance must be exact here. */
export const handler = (deps: AppDeps) => async (request: RequestOf<typeof schema>, reply: ReplyOf<typeof schema>) =>
  reply.code(200).send(await accountCredits(deps, principalOf(request).accountId));

export function registerCredits(app: Api, deps: AppDeps): void {
  app.get('/account/credits', { schema }, handler(deps));
}
