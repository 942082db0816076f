/**
 * The Redis revocation channel against the machine's Redis: word from one instance reaches every
 * other (and its own listeners at once), deployments with other prefixes hear nothing, and an
 * unreachable Redis costs a logged warning, never an error.
 */
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createRedisRevocations } from '../../../src/adapters/revocations/redis.ts';
import type { KeyRevocations } from '../../../src/ports/key-revocations.ts';

const REDIS_URL = 'redis://127.0.0.1:6379';
const opened: KeyRevocations[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((r) => r.close()));
});

/** An instance's channel, with what its listener heard. */
async function instance(keyPrefix: string, options: { url?: string; subscribe?: boolean } = {}) {
  const heard: string[] = [];
  let missed = 0;
  const warnings: string[] = [];
  const revocations = createRedisRevocations({ url: options.url ?? REDIS_URL, keyPrefix, log: (e) => warnings.push(e.msg), ...(options.subscribe === false ? { subscribe: false } : {}) });
  opened.push(revocations);
  revocations.listen({ revoked: (keyId) => heard.push(keyId), missed: () => missed++ });
  return { revocations, heard, warnings, missed: () => missed };
}

const until = async (what: string, check: () => boolean, ms = 2000) => {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe('Redis key revocations', () => {
  it('an announcement reaches this instance at once and every other one with the prefix, not other deployments', async () => {
    const prefix = `spq:t:rev:${randomBytes(4).toString('hex')}:`;
    const [a, b, other] = [await instance(prefix), await instance(prefix), await instance(`${prefix}other:`)];
    await until('subscriptions', () => a.missed() > 0 && b.missed() > 0 && other.missed() > 0);
    const announced = a.revocations.announce('key_aaaaaaaaaaaaaaaaaaaa');
    expect(a.heard).toEqual(['key_aaaaaaaaaaaaaaaaaaaa']); // before the publish even completes
    await announced;
    await until('the other instance', () => b.heard.length > 0);
    expect(b.heard).toEqual(['key_aaaaaaaaaaaaaaaaaaaa']);
    // The publisher heard its own message back through Redis too: harmless (revocation is idempotent).
    await new Promise((r) => setTimeout(r, 100));
    expect(other.heard).toEqual([]);
  });

  it('an announce-only process (the admin CLI) reaches the servers', async () => {
    const prefix = `spq:t:rev:${randomBytes(4).toString('hex')}:`;
    const server = await instance(prefix);
    await until('subscription', () => server.missed() > 0);
    const cli = await instance(prefix, { subscribe: false });
    await cli.revocations.announce('key_bbbbbbbbbbbbbbbbbbbb');
    await until('the server', () => server.heard.length > 0);
    expect(server.heard).toEqual(['key_bbbbbbbbbbbbbbbbbbbb']);
  });

  it('Redis out of reach: announce resolves and warns; this instance still hears it', async () => {
    const down = await instance('spq:t:rev:down:', { url: 'redis://127.0.0.1:1', subscribe: false });
    await down.revocations.announce('key_cccccccccccccccccccc');
    expect(down.heard).toEqual(['key_cccccccccccccccccccc']);
    expect(down.warnings.some((w) => w.includes('could not announce the revocation of key_cccccccccccccccccccc'))).toBe(true);
  });
});
