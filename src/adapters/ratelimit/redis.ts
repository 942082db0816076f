import { createHash, randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import type { RateDecision, RateLimiter, WindowPolicy } from '../../ports/rate-limiter.ts';
import { createMemoryRateLimiter } from './memory.ts';
import { decide, validatePolicies, windowMs, type WindowState } from './sliding-window.ts';

/**
 * Sliding-log limiter shared by every instance through Redis: one sorted set per (key, window
 * length), scored by request time, with one unique member per counted request. One Lua script
 * per request prunes, checks every window and only then adds to all of them, atomically, so
 * parallel requests on many instances count exactly.
 *
 * Redis being down must never turn into 500s: the limiter then answers from a per-instance
 * memory limiter (each instance enforces the limits on its own share of traffic), reports
 * healthy() = false for /readyz, logs the change once, and goes back to Redis when it returns.
 */
export type LimiterLog = (event: { level: 'warn' | 'info'; msg: string; err?: string }) => void;

export type RedisRateLimiterOptions = ({ url: string } | { client: Redis }) & {
  /** Prefix of every Redis key this limiter writes (tests use a unique one). */
  readonly keyPrefix?: string;
  readonly log?: LimiterLog;
};

// KEYS[i]: the sorted set of policy i (policies sharing a window length share a set).
// ARGV: nowMs, member, then per policy: windowMs, limit.
// Returns {allowed, count1, pivot1, count2, pivot2, ...}; the pivot index is pivotIndex() of
// sliding-window.ts (count − limit when full, else 0).
const HIT_SCRIPT = `
local now = tonumber(ARGV[1])
local member = ARGV[2]
local n = #KEYS
local counts = {}
local allowed = 1
for i = 1, n do
  local w = tonumber(ARGV[1 + 2 * i])
  redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now - w)
  counts[i] = redis.call('ZCARD', KEYS[i])
  if counts[i] >= tonumber(ARGV[2 + 2 * i]) then allowed = 0 end
end
local out = {allowed}
for i = 1, n do
  local limit = tonumber(ARGV[2 + 2 * i])
  local idx = 0
  if counts[i] >= limit then idx = counts[i] - limit end
  local pivot = redis.call('ZRANGE', KEYS[i], idx, idx, 'WITHSCORES')[2]
  out[#out + 1] = counts[i]
  out[#out + 1] = pivot or false
end
if allowed == 1 then
  for i = 1, n do
    redis.call('ZADD', KEYS[i], now, member)
    redis.call('PEXPIRE', KEYS[i], tonumber(ARGV[1 + 2 * i]))
  end
end
return out
`;
const HIT_SHA = createHash('sha1').update(HIT_SCRIPT).digest('hex');

const DEFAULT_PREFIX = 'spq:rl:';
const HEALTH_TIMEOUT_MS = 500;
const FIRST_CONNECT_WAIT_MS = 600;

/** Connection settings that make an unreachable Redis fail fast instead of queueing requests. */
export function failFastRedis(url: string): Redis {
  return new Redis(url, {
    connectTimeout: 500,
    commandTimeout: 1000,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    // Keep trying to reconnect (at most once a second) so the limiter recovers by itself.
    retryStrategy: (times) => Math.min(times * 100, 1000),
  });
}

/** Settles once the client is ready, or its first connection attempt failed or ended, or after FIRST_CONNECT_WAIT_MS. */
function firstConnection(client: Redis): Promise<void> {
  if (client.status === 'ready') return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      client.off('ready', done).off('error', done).off('end', done);
      resolve();
    };
    const timer = setTimeout(done, FIRST_CONNECT_WAIT_MS);
    timer.unref();
    client.once('ready', done).once('error', done).once('end', done);
  });
}

export function createRedisRateLimiter(options: RedisRateLimiterOptions): RateLimiter {
  const owned = 'url' in options;
  const client = 'url' in options ? failFastRedis(options.url) : options.client;
  const prefix = options.keyPrefix ?? DEFAULT_PREFIX;
  const log: LimiterLog = options.log ?? (() => {});
  const fallback = createMemoryRateLimiter();
  const instance = randomBytes(6).toString('hex');
  let sequence = 0;
  let degraded = false;

  function degrade(err: unknown): void {
    if (degraded) return;
    degraded = true;
    log({
      level: 'warn',
      msg: 'Redis unreachable: rate limits now enforced per instance until it returns',
      err: err instanceof Error ? err.message : String(err),
    });
  }
  function recover(): void {
    if (!degraded) return;
    degraded = false;
    log({ level: 'info', msg: 'Redis reachable again: rate limits shared across instances' });
  }
  // Without a listener ioredis reports every failed reconnect as an unhandled error.
  client.on('error', degrade);
  // The first requests after start-up wait for the first connection attempt (bounded by the
  // connect timeout) instead of being answered by the fallback while the socket is opening.
  const firstConnect = firstConnection(client);

  const setKey = (key: string, policy: WindowPolicy) => `${prefix}{${key}}:${policy.windowSeconds}`;

  async function runScript(keys: string[], args: (string | number)[]): Promise<unknown> {
    try {
      return await client.evalsha(HIT_SHA, keys.length, ...keys, ...args);
    } catch (err) {
      if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err;
      return client.eval(HIT_SCRIPT, keys.length, ...keys, ...args);
    }
  }

  async function sharedHit(key: string, policies: readonly WindowPolicy[], nowMs: number): Promise<RateDecision> {
    const keys = policies.map((p) => setKey(key, p));
    const args: (string | number)[] = [nowMs, `${nowMs}:${instance}:${sequence++}`];
    for (const p of policies) args.push(windowMs(p), p.limit);
    const reply = (await runScript(keys, args)) as (number | string | null)[];
    const states: WindowState[] = policies.map((policy, i) => {
      const count = Number(reply[1 + 2 * i]);
      const pivot = reply[2 + 2 * i];
      const pivotMs = pivot === null || pivot === undefined ? nowMs : Number(pivot);
      // Same convention as the memory log: an empty window frees up from now on.
      return { policy, count, pivotMs: count < policy.limit ? Math.min(pivotMs, nowMs) : pivotMs };
    });
    return decide(states, nowMs);
  }

  return {
    async hit(key, policies, nowMs) {
      validatePolicies(policies);
      await firstConnect;
      if (client.status === 'ready') {
        try {
          const decision = await sharedHit(key, policies, nowMs);
          recover();
          return decision;
        } catch (err) {
          degrade(err);
        }
      } else {
        degrade(new Error(`connection ${client.status}`));
      }
      return fallback.hit(key, policies, nowMs);
    },

    async healthy() {
      if (client.status !== 'ready') return false;
      const timeout = new Promise<false>((resolve) => setTimeout(resolve, HEALTH_TIMEOUT_MS, false).unref());
      const ping = client.ping().then(
        (reply) => reply === 'PONG',
        () => false,
      );
      return Promise.race([ping, timeout]);
    },

    async close() {
      client.off('error', degrade);
      await fallback.close();
      if (!owned) return;
      if (client.status === 'ready') await client.quit().catch(() => client.disconnect());
      else client.disconnect();
    },
  };
}
