import type { PasswordHasher } from '../ports/password-hasher.ts';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger, FastifyInstance, RawServerDefault } from 'fastify';
import type { Writable } from 'node:stream';
import type { Registry } from 'prom-client';
import type { Principal } from '../app/auth.ts';
import type { UseCaseDeps } from '../app/deps.ts';
import type { Drain } from '../app/drain.ts';
import type { ExecuteObserver } from '../app/execute.ts';
import type { SummaryCache } from '../app/summary-cache.ts';

/** The Fastify instance with TypeBox typing: route handlers get Static<> of their schemas. */
export type Api = FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, FastifyBaseLogger, TypeBoxTypeProvider>;

export interface LoggerOptions {
  readonly level: string;
  /** Where JSON log lines go (stdout, asynchronously, by default: logging.ts); tests pass a capturing stream. */
  readonly stream?: Writable | { write(line: string): unknown };
}

/** What buildApp needs: the use cases' ports plus HTTP concerns. No globals, no process.env. */
export interface AppDeps extends UseCaseDeps {
  readonly logger: LoggerOptions;
  /** Password hashing on bounded threads of its own (never Node's shared pool, where file I/O waits). */
  readonly passwords: PasswordHasher;
  /** In-flight executes, so shutdown can finish them and refuse new ones (503). */
  readonly drain: Drain;
  /** Balance/tier memory shared by the routes of this app (created by buildApp when absent). */
  readonly summaries?: SummaryCache;
  /**
   * Registry of this app's Prometheus metrics, served at /metrics (created by buildApp when
   * absent). One per app, never prom-client's global registry: a name registers once per registry.
   */
  readonly metricsRegistry?: Registry;
  /** Told about each completed execute; buildApp sets it to its metrics. */
  readonly executeObserver?: ExecuteObserver;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the authentication hook on authenticated routes. */
    principal: Principal | null;
    /** The client's address: the connection's, or what trusted proxies say (client-address.ts); every per-address limit counts it. */
    readonly clientAddress: string;
  }
}

import type { FastifyReply, FastifyRequest, FastifySchema, RouteGenericInterface } from 'fastify';

/** Request and reply types of a route, inferred from its schema (for handlers defined apart from their registration). */
export type RequestOf<S extends FastifySchema> = FastifyRequest<RouteGenericInterface, RawServerDefault, IncomingMessage, S, TypeBoxTypeProvider>;
export type ReplyOf<S extends FastifySchema> = FastifyReply<RouteGenericInterface, RawServerDefault, IncomingMessage, ServerResponse, unknown, S, TypeBoxTypeProvider>;
