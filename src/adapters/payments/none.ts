import { err } from '../../core/result.ts';
import type { PaymentProvider } from '../../ports/payments.ts';

/**
 * Payments off (SPQ_PAYMENTS=none, the default): no checkout and no webhook; the operator grants
 * bundles with `spq admin bundle add`, and the account area says how to reach them.
 */
export function noPayments(operatorContact: string | undefined): PaymentProvider {
  const ask = `Bundles are sold by the service's operator${operatorContact ? ` (${operatorContact})` : ''}: ask them to add one to your account.`;
  return {
    name: 'none',
    startCheckout: async () => err(ask),
    readEvent: async () => err('Payments are off on this service (SPQ_PAYMENTS=none): no webhook is read.'),
  };
}
