/** renderError's Retry-After: 429 and 503 say how long to wait; a 503 that knows its own wait (the password threads' queue) says that one. */
import { describe, expect, it } from 'vitest';
import { appError } from '../../src/core/errors.ts';
import { renderError } from '../../src/http/errors.ts';

describe('renderError', () => {
  it('a 503 waits 5 s unless the failure names its wait; a 429 names its own', () => {
    expect(renderError(appError('service_unavailable', 'down'), 'req_1')).toMatchObject({ status: 503, headers: { 'retry-after': '5' } });
    expect(renderError(appError('service_unavailable', 'busy', { retry_after_seconds: 2 }), 'req_1')).toMatchObject({ status: 503, headers: { 'retry-after': '2' } });
    expect(renderError(appError('rate_limited', 'slow', { retry_after_seconds: 40 }), 'req_1')).toMatchObject({ status: 429, headers: { 'retry-after': '40' } });
  });
});
