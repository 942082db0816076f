import { randomUUID } from 'node:crypto';
import { createServer, Socket, type Server } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { createRedisRateLimiter, type LimiterLog } from '../../../src/adapters/ratelimit/redis.ts';
import { rateLimiterContract } from './rate-limiter.contract.ts';

const REDIS_URL = 'redis://127.0.0.1:6379';
const prefixes: string[] = [];
const newPrefix = () => {
  const prefix = `spq:test:rl:${randomUUID()}:`;
  prefixes.push(prefix);
  return prefix;
};

afterAll(async () => {
  // The tests' clock is fake, so TTLs set from it are not what clears these keys: delete them.
  const redis = new Redis(REDIS_URL);
  for (const prefix of prefixes) {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
  }
  await redis.quit();
});

rateLimiterContract('redis', {
  make: async () => createRedisRateLimiter({ url: REDIS_URL, keyPrefix: newPrefix() }),
  makePair: async () => {
    const keyPrefix = newPrefix();
    return [createRedisRateLimiter({ url: REDIS_URL, keyPrefix }), createRedisRateLimiter({ url: REDIS_URL, keyPrefix })] as const;
  },
});

const policies = [{ name: 'minute', limit: 2, windowSeconds: 60 }];

/** A port on which nothing listens (taken from the OS, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** A TCP pass-through to the real Redis, so a test can make Redis vanish and come back. */
function redisProxy(port: number): Promise<{ stop(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((inbound) => {
    const outbound = new Socket();
    outbound.connect(6379, '127.0.0.1');
    for (const s of [inbound, outbound]) {
      sockets.add(s);
      s.on('error', () => {});
      s.on('close', () => sockets.delete(s));
    }
    inbound.pipe(outbound).pipe(inbound);
  });
  return new Promise((resolve) =>
    server.listen(port, '127.0.0.1', () =>
      resolve({
        stop: () =>
          new Promise<void>((done) => {
            for (const s of sockets) s.destroy();
            server.close(() => done());
          }),
      }),
    ),
  );
}

async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}

describe('redis rate limiter', () => {
  it('shares the count between instances through Redis and sets an expiry on its keys', async () => {
    const keyPrefix = newPrefix();
    const a = createRedisRateLimiter({ url: REDIS_URL, keyPrefix });
    const b = createRedisRateLimiter({ url: REDIS_URL, keyPrefix });
    const now = Date.now();
    expect((await a.hit('k', policies, now)).allowed).toBe(true);
    expect((await b.hit('k', policies, now + 1)).allowed).toBe(true);
    expect((await a.hit('k', policies, now + 2)).allowed).toBe(false);
    const redis = new Redis(REDIS_URL);
    const ttl = await redis.pttl(`${keyPrefix}{k}:60`);
    expect(ttl).toBeGreaterThan(55_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
    await Promise.all([a.close(), b.close(), redis.quit()]);
  });

  it('degrades to per-instance limits when Redis is unreachable: no throw, healthy() false, one log line', async () => {
    const logged: Parameters<LimiterLog>[0][] = [];
    const limiter = createRedisRateLimiter({ url: `redis://127.0.0.1:${await closedPort()}`, keyPrefix: newPrefix(), log: (e) => logged.push(e) });
    const started = Date.now();
    const decisions = [];
    for (let i = 0; i < 3; i++) decisions.push(await limiter.hit('k', policies, 1_000 + i));
    expect(Date.now() - started).toBeLessThan(1_000); // no waiting on a dead connection
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, false]);
    expect(await limiter.healthy()).toBe(false);
    expect(logged.filter((e) => e.level === 'warn')).toHaveLength(1);
    await limiter.close();
  });

  it('goes back to Redis when it returns, and degrades again when it vanishes mid-run', async () => {
    const port = await closedPort();
    const logged: Parameters<LimiterLog>[0][] = [];
    const limiter = createRedisRateLimiter({ url: `redis://127.0.0.1:${port}`, keyPrefix: newPrefix(), log: (e) => logged.push(e) });
    const key = `k-${randomUUID()}`;
    expect((await limiter.hit(key, policies, 1_000)).allowed).toBe(true); // memory fallback
    expect(await limiter.healthy()).toBe(false);

    const proxy = await redisProxy(port);
    expect(await until(() => limiter.healthy(), 5_000)).toBe(true);
    // Shared state is fresh: the fallback's hit is not in Redis.
    expect((await limiter.hit(key, policies, 2_000)).remaining).toBe(1);
    expect((await limiter.hit(key, policies, 2_001)).remaining).toBe(0);
    expect(logged.map((e) => e.level)).toEqual(['warn', 'info']);

    await proxy.stop();
    const afterLoss = await limiter.hit(key, policies, 3_000);
    expect(afterLoss).toHaveProperty('allowed');
    expect(await limiter.healthy()).toBe(false);
    expect(logged.map((e) => e.level)).toEqual(['warn', 'info', 'warn']);
    await limiter.close();
  });
});
