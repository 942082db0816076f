/**
 * Integer query parameters as decimal digits only: Fastify's validator coerces "0x10", "1e2",
 * "100.5" and "true" into numbers, and a page past 2^53 into a value the database refuses (a
 * 500). This preValidation step sees the raw strings first and answers 400 in the contract's
 * shape for anything but 1–9 digits within the parameter's maximum.
 */
import type { preValidationAsyncHookHandler } from 'fastify';
import { appError } from '../core/errors.ts';
import { sendError } from './errors.ts';

export function strictIntegers(maxima: Readonly<Record<string, number>>): preValidationAsyncHookHandler {
  return async (request, reply) => {
    const query = (request.query ?? {}) as Record<string, unknown>;
    for (const [name, max] of Object.entries(maxima)) {
      const raw = query[name];
      if (raw === undefined) continue;
      const text = Array.isArray(raw) ? raw.join(',') : String(raw);
      if (!/^[0-9]{1,9}$/.test(text) || Number(text) < 1 || Number(text) > max) {
        return sendError(reply, appError('bad_request', `${name} must be a whole number from 1 to ${max}, written in digits; got "${text.slice(0, 40)}".`));
      }
    }
    return undefined;
  };
}
