import { Type, type Static } from '@sinclair/typebox';
import { StringEnum } from './common.ts';

export const CreditsResult = Type.Object({
  credits_remaining: Type.Integer({ description: 'Current balance: free allowance left plus purchased credits' }),
  tier: StringEnum(['free', 'paid'] as const),
  credits_purchased: Type.Integer(),
  credits_used: Type.Integer(),
  free_credits_remaining: Type.Integer(),
  free_credits_reset: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'Next weekly reset (Monday 00:00 Australia/Sydney) with its offset; null without a weekly allowance',
  }),
});
export type CreditsResult = Static<typeof CreditsResult>;

export const BundleOffer = Type.Object({
  bundle_id: Type.String({ description: 'The catalogue id; the account area\'s "Buy credits" page buys it' }),
  name: Type.String(),
  credits: Type.Integer({ minimum: 1, description: 'Credits added to the purchased balance (they never expire)' }),
  paid_days: Type.Integer({ minimum: 1, description: 'Days of the paid tier from the moment of purchase' }),
  price: Type.Integer({ minimum: 1, description: "Price in the currency's smallest unit (cents), tax included" }),
  currency: Type.String({ pattern: '^[a-z]{3}$', description: 'ISO 4217, lower case (e.g. "aud")' }),
  tax_note: Type.String({ description: 'What the price includes, e.g. "GST included"; empty when the operator says nothing' }),
});

export const BundlesResult = Type.Object(
  {
    bundles: Type.Array(BundleOffer),
    purchase: StringEnum(['checkout', 'operator'] as const, {
      description: 'checkout: holders buy bundles themselves in the account area (/console/buy, paid through Stripe); operator: the operator adds bundles on request',
    }),
    buy_url: Type.String({ description: 'The account area\'s "Buy credits" page' }),
  },
  { description: 'Extension: the bundles this service sells (docs/api.md, "Bundles")' },
);
export type BundlesResult = Static<typeof BundlesResult>;
