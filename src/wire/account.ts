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
