import { Redis } from 'ioredis';
import type { KeyRevocations, RevocationListener } from '../../ports/key-revocations.ts';
import { failFastRedis } from '../ratelimit/redis.ts';

export type RevocationLog = (event: { level: 'warn' | 'info'; msg: string; err?: string }) => void;

export interface RedisRevocationsOptions {
  readonly url: string;
  /** Prefix of the channel name (SPQ_REDIS_PREFIX), so deployments sharing a Redis do not hear each other. */
  readonly keyPrefix: string;
  readonly log?: RevocationLog;
  /** false for a process that only announces (the admin CLI): no subscriber connection. */
  readonly subscribe?: boolean;
}

/** How long an announcement waits for a connection still opening (the admin CLI announces right after start). */
const CONNECT_WAIT_MS = 2000;

export const revocationChannel = (keyPrefix: string) => `${keyPrefix}key-revoked`;

/**
 * Revocations over a Redis pub/sub channel: announce tells this process's listeners at once, then
 * publishes the key id (an id, never the key) to every instance. Redis keeps no backlog, so each
 * time the subscriber (re)connects, listeners are told they may have missed some; a publish that
 * fails is logged, not thrown: the key is revoked in the database either way, and every
 * instance's recheck interval bounds how long it may still be served.
 */
export function createRedisRevocations(options: RedisRevocationsOptions): KeyRevocations {
  const listeners = new Set<RevocationListener>();
  const local = {
    tell: (keyId: string) => listeners.forEach((l) => l.revoked(keyId)),
    missed: () => listeners.forEach((l) => l.missed()),
  };
  const channel = revocationChannel(options.keyPrefix);
  const log: RevocationLog = options.log ?? (() => {});
  const subscriber = options.subscribe === false ? undefined : subscribe(options.url, channel, local, log);
  // Opened at the first revocation (rare; an admin command that revokes nothing opens none).
  let publisher: Redis | undefined;
  const publisherNow = (): Redis => {
    if (publisher === undefined) {
      publisher = failFastRedis(options.url);
      publisher.on('error', () => undefined); // a failed publish is reported where it happens
    }
    return publisher;
  };

  return {
    async announce(keyId) {
      local.tell(keyId);
      try {
        const client = publisherNow();
        await connected(client, CONNECT_WAIT_MS);
        await client.publish(channel, keyId);
      } catch (error) {
        log({ level: 'warn', msg: `could not announce the revocation of ${keyId} to other instances; they refuse the key from their next recheck`, err: error instanceof Error ? error.message : String(error) });
      }
    },
    listen(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      listeners.clear();
      for (const client of [subscriber, publisher]) {
        if (client === undefined) continue;
        client.removeAllListeners('error');
        client.on('error', () => undefined);
        if (client.status === 'ready') await client.quit().catch(() => client.disconnect());
        else client.disconnect();
      }
    },
  };
}

/** The subscriber connection: each announcement to the listeners; each (re)connection as "may have missed some". */
function subscribe(url: string, channel: string, local: { tell(keyId: string): void; missed(): void }, log: RevocationLog): Redis {
  // A subscriber connection may only subscribe; it retries for ever, like the limiter's.
  const subscriber = new Redis(url, { connectTimeout: 500, maxRetriesPerRequest: null, retryStrategy: (times) => Math.min(times * 100, 1000) });
  let lost = false;
  const onError = (error: unknown) => {
    if (lost) return;
    lost = true;
    log({ level: 'warn', msg: 'Redis unreachable: key revocations from other instances now take effect at the next key recheck', err: error instanceof Error ? error.message : String(error) });
  };
  subscriber.on('error', onError);
  subscriber.on('message', (from: string, keyId: string) => {
    if (from === channel) local.tell(keyId);
  });
  // (Re)connected: anything announced while this instance was not listening is lost.
  subscriber.on('ready', () => {
    if (lost) log({ level: 'info', msg: 'Redis reachable again: key revocations reach this instance at once' });
    lost = false;
    local.missed();
  });
  subscriber.subscribe(channel).then(() => local.missed(), onError);
  return subscriber;
}

/** Resolves once the client is ready, or after `ms` (the command then fails fast and is reported). */
function connected(client: Redis, ms: number): Promise<void> {
  if (client.status === 'ready') return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      client.off('ready', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    client.once('ready', done);
  });
}
