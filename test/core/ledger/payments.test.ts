/** The rules of selling bundles (src/core/ledger/payments.ts) and their catalogue in the config (src/config.ts). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clawback, decidePurchase, reversalTarget } from '../../../src/core/ledger/payments.ts';
import { ConfigError, DEFAULT_BUNDLES, loadConfig } from '../../../src/config.ts';
import { amountWithCode, priceText } from '../../../src/core/money.ts';

const catalogue = [{ id: 'starter', credits: 100, days: 30, price: 2500, currency: 'aud' }];
const paid = { bundleId: 'starter', quotedPrice: 2500, quotedCurrency: 'aud', amountPaid: 2500, currency: 'AUD' };

describe('decidePurchase', () => {
  it('grants the catalogue bundle paid in full at the price quoted', () => {
    expect(decidePurchase(paid, catalogue, true)).toEqual({ grant: catalogue[0] });
  });
  it('refuses an unknown account, an unknown bundle, another currency, a changed price, another amount', () => {
    expect(decidePurchase(paid, catalogue, false)).toEqual({ refused: 'unknown_account' });
    expect(decidePurchase({ ...paid, bundleId: 'gold' }, catalogue, true)).toEqual({ refused: 'unknown_bundle' });
    expect(decidePurchase({ ...paid, bundleId: null }, catalogue, true)).toEqual({ refused: 'unknown_bundle' });
    expect(decidePurchase({ ...paid, currency: 'usd' }, catalogue, true)).toEqual({ refused: 'currency_mismatch' });
    expect(decidePurchase({ ...paid, quotedPrice: 2000, amountPaid: 2000 }, catalogue, true)).toEqual({ refused: 'price_changed' });
    expect(decidePurchase({ ...paid, quotedPrice: null }, catalogue, true)).toEqual({ refused: 'price_changed' });
    expect(decidePurchase({ ...paid, amountPaid: 2499 }, catalogue, true)).toEqual({ refused: 'amount_mismatch' });
  });
});

describe('taking a bundle back', () => {
  it('takes the refunded share, all of it on a full refund or a lost dispute', () => {
    const state = { credits: 100, amountPaid: 2500, amountRefunded: 0, disputeLost: false };
    expect(reversalTarget(state)).toBe(0);
    expect(reversalTarget({ ...state, amountRefunded: 1000 })).toBe(40);
    expect(reversalTarget({ ...state, amountRefunded: 2500 })).toBe(100);
    expect(reversalTarget({ ...state, disputeLost: true })).toBe(100);
  });
  it('never below zero: what is spent is shortfall; and whatever the steps, taken + shortfall = the target', () => {
    expect(clawback(100, { reversed: 0, shortfall: 0 }, 30)).toEqual({ take: 30, shortfall: 70 });
    expect(clawback(100, { reversed: 30, shortfall: 70 }, 500)).toEqual({ take: 0, shortfall: 0 });
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 200 })), { minLength: 1, maxLength: 6 }), (steps) => {
        let settled = { reversed: 0, shortfall: 0 };
        let target = 0;
        for (const [next, left] of steps) {
          target = Math.max(target, next);
          const step = clawback(target, settled, left);
          expect(step.take).toBeLessThanOrEqual(left);
          settled = { reversed: settled.reversed + step.take, shortfall: settled.shortfall + step.shortfall };
        }
        expect(settled.reversed + settled.shortfall).toBe(target);
      }),
    );
  });
});

describe('amounts in the smallest unit, in words', () => {
  it('follows the currency’s decimals', () => {
    expect(amountWithCode(2500, 'aud')).toBe('25.00 AUD');
    expect(amountWithCode(500, 'jpy')).toBe('500 JPY');
    expect(priceText(2500, 'aud')).toBe('$25.00');
  });
});

describe('the catalogue and payments in the config', () => {
  it('payments are off by default, with the default catalogue', () => {
    expect(loadConfig({}).payments).toEqual({ provider: 'none', bundles: DEFAULT_BUNDLES, operatorContact: undefined, stripe: undefined });
  });
  it('reads SPQ_BUNDLES and the Stripe settings', () => {
    const config = loadConfig({
      SPQ_PAYMENTS: 'stripe',
      SPQ_STRIPE_SECRET_KEY: 'sk_test_x',
      SPQ_STRIPE_WEBHOOK_SECRET: 'whsec_x',
      SPQ_BUNDLES: '[{"id":"big","name":"Big","credits":1000,"days":365,"price":15000,"currency":"NZD","tax_note":"GST included"}]',
    }).payments;
    expect(config.bundles).toEqual([{ id: 'big', name: 'Big', credits: 1000, days: 365, price: 15000, currency: 'nzd', taxNote: 'GST included' }]);
    expect(config.stripe).toEqual({ secretKey: 'sk_test_x', webhookSecret: 'whsec_x', apiUrl: undefined });
  });
  it('refuses a bad catalogue or Stripe without its keys, saying what is wrong', () => {
    const bad: [Record<string, string>, RegExp][] = [
      [{ SPQ_PAYMENTS: 'paypal' }, /SPQ_PAYMENTS must be "none" or "stripe"/],
      [{ SPQ_PAYMENTS: 'stripe' }, /SPQ_STRIPE_SECRET_KEY/],
      [{ SPQ_PAYMENTS: 'stripe', SPQ_STRIPE_SECRET_KEY: 'sk_test_x' }, /SPQ_STRIPE_WEBHOOK_SECRET/],
      [{ SPQ_BUNDLES: 'not json' }, /JSON array/],
      [{ SPQ_BUNDLES: '[{"id":"a","name":"A","credits":0,"days":1,"price":1,"currency":"aud"}]' }, /credits must be a whole number ≥ 1/],
      [{ SPQ_BUNDLES: '[{"id":"a","name":"A","credits":1,"days":1,"price":1.5,"currency":"aud"}]' }, /price must be a whole number/],
      [{ SPQ_BUNDLES: '[{"id":"a","name":"A","credits":1,"days":1,"price":1,"currency":"dollars"}]' }, /three-letter ISO 4217/],
      [{ SPQ_BUNDLES: '[{"id":"a","name":"A","credits":1,"days":1,"price":1,"currency":"aud"},{"id":"a","name":"B","credits":1,"days":1,"price":1,"currency":"aud"}]' }, /"a" twice/],
    ];
    for (const [env] of bad) expect(() => loadConfig(env), JSON.stringify(env)).toThrow(ConfigError);
    for (const [env, message] of bad) expect(() => loadConfig(env)).toThrow(message);
  });
});
