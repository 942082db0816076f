import { readFileSync, existsSync } from 'node:fs';
import { isIP } from 'node:net';
import { resolve } from 'node:path';

/**
 * Typed configuration, parsed once at start-up from environment variables (and an optional
 * JSON config file named by SPQ_CONFIG_FILE) and passed explicitly to whatever needs it.
 * Nothing reads process.env anywhere else.
 */
export interface Config {
  readonly dataDir: string;
  readonly host: string;
  readonly port: number;
  /** Base URL that download links point at (defaults to http://host:port). */
  readonly publicBaseUrl: string | undefined;
  /** Server secret for key hashing and link signing; generated and kept in the data dir when unset. */
  readonly serverSecret: string | undefined;
  readonly databaseUrl: string | undefined;
  readonly redisUrl: string | undefined;
  /** PostgreSQL connections per instance (SPQ_PG_POOL_SIZE, default 10). */
  readonly pgPoolSize: number;
  /** PostgreSQL statement_timeout of every connection (SPQ_PG_STATEMENT_TIMEOUT_MS, default 10,000). */
  readonly pgStatementTimeoutMs: number;
  /** Prefix of every Redis key (SPQ_REDIS_PREFIX): separate deployments or tests can share one Redis. */
  readonly redisKeyPrefix: string;
  readonly s3: S3Config | undefined;
  /** Pool release directory; default: <dataDir>/pools/<poolVersion> when that exists, else <dataDir>/pools/<newest>. */
  readonly poolDir: string | undefined;
  /** SPQ_POOL_VERSION: the release version every instance must serve; start-up refuses another. */
  readonly poolVersion: string | undefined;
  /** SPQ_POOL_CHECKSUM: the release's manifest checksum (hex SHA-256); start-up refuses another. */
  readonly poolChecksum: string | undefined;
  /**
   * SPQ_POOL_VERIFY: how start-up checks the release's files against its manifest. "sampled" (the
   * default): sizes, small files whole, large ones by 16 sampled blocks; "full": every byte
   * (docs/performance.md says what each costs).
   */
  readonly poolVerify: 'sampled' | 'full';
  /** SPQ_METRICS_TOKEN: when set, GET /metrics needs "Authorization: Bearer <token>"; unset, /metrics is open. */
  readonly metricsToken: string | undefined;
  /**
   * SPQ_TEST_EXPORT_DELAY_MS, for tests only: every result-file export waits this long first, so a
   * test can catch an execute in flight (graceful shutdown). 0 (the default) in production.
   */
  readonly testExportDelayMs: number;
  /**
   * SPQ_TEST_PAYMENT_APPLY_DELAY_MS, for tests only: a webhook's event waits this long between being
   * recorded and being applied, so a test can kill the process there. 0 (the default) in production.
   */
  readonly testPaymentApplyDelayMs: number;
  readonly smallSuburbThreshold: number;
  /**
   * SPQ_DEMO_IMPLICATES: implicates the demo release holds (default 5). The first is built before
   * the service listens; the others after, one at a time, served as each completes. 1: none extra.
   */
  readonly demoImplicates: number;
  readonly maxRowsPerExecute: number;
  readonly rateLimits: {
    readonly perMinute: number;
    readonly minuteWindowSeconds: number;
    readonly freePerHour: number;
    readonly paidPerHour: number;
    readonly hourWindowSeconds: number;
    readonly failedAuthPerMinute: number;
    readonly downloadsPerMinute: number;
  };
  readonly downloadTtlDays: number;
  readonly fileGraceHours: number;
  /** SPQ_REQUEST_TIMEOUT_MS: a request (headers and body) must arrive within this, else 408 and the connection closes. */
  readonly requestTimeoutMs: number;
  /** SPQ_HEADERS_TIMEOUT_MS: the request's headers must arrive within this. */
  readonly headersTimeoutMs: number;
  /** SPQ_INSTANCE_LEASE_SECONDS: an instance not heard from for this long is dead; its pending executes are refunded. */
  readonly instanceLeaseSeconds: number;
  /**
   * SPQ_KEY_RECHECK_MS (default 1000): an API key remembered in memory is read from the database
   * again once this old, so a revocation takes effect within it even if its announcement is lost.
   */
  readonly keyRecheckMs: number;
  /** SPQ_READY_IO_MS: /readyz is 503 when a file check on Node's shared thread pool takes longer (the pool is starved). */
  readonly readyIoMs: number;
  readonly logLevel: string;
  /** Who may tell the service a client's address (docs/deploy.md, "Behind a load balancer"). */
  readonly trustedProxies: TrustedProxies;
  /** The account area (web pages for account holders). */
  readonly accountArea: {
    /** SPQ_SESSION_HOURS: a sign-in lasts at most this long. */
    readonly sessionHours: number;
    /** SPQ_SESSION_IDLE_MINUTES: a session unused for this long ends. */
    readonly sessionIdleMinutes: number;
    /** SPQ_ONE_TIME_LINK_HOURS: invitation and password-reset links work this long, once. */
    readonly oneTimeLinkHours: number;
    /**
     * SPQ_SIGN_IN_ATTEMPTS_PER_PAIR: sign-in attempts per minute for one email from one address;
     * twice as many per 15 minutes and four times as many per day (the backoff). Guesses from
     * other addresses never count against the holder's own.
     */
    readonly signInAttemptsPerPair: number;
    /** SPQ_SIGN_IN_ATTEMPTS_PER_ADDRESS: sign-in attempts per 15 minutes from one address, whatever the email. */
    readonly signInAttemptsPerAddress: number;
    /**
     * SPQ_SIGN_IN_ATTEMPTS_PER_ACCOUNT: sign-in attempts per 15 minutes at one account from browsers
     * that have not signed in to it before, from every address together (five times as many a day).
     */
    readonly signInAttemptsPerAccount: number;
    /** SPQ_RESET_LINK_MINUTES: a password-reset link sent by email works this long, once. */
    readonly resetLinkMinutes: number;
    /** SPQ_RESET_EMAILS_PER_HOUR: reset emails per hour to one address (and per client address). */
    readonly resetEmailsPerHour: number;
    /** SPQ_PASSWORD_THREADS: threads of the service's own that hash and check passwords (never Node's shared pool). */
    readonly passwordThreads: number;
    /** SPQ_PASSWORD_QUEUE: password checks that may wait for a thread; more get "busy, try again" at once. */
    readonly passwordQueue: number;
  };
  /** Limits per holder, whatever number of keys they hold. */
  readonly holderLimits: {
    /** SPQ_MAX_KEYS_PER_ACCOUNT: unrevoked API keys an account may hold (the operator's CLI is not limited). */
    readonly maxActiveKeys: number;
    /** SPQ_KEY_CREATIONS_PER_HOUR: keys a holder may create per hour in the account area. */
    readonly keyCreationsPerHour: number;
  };
  /** Sandbox (spq_test_) executes: free, so capped. */
  readonly sandbox: {
    /** SPQ_SANDBOX_RECORDS_PER_SELECTION: records delivered per selection (a household sample counts its dwellings, families and persons). */
    readonly recordsPerSelection: number;
    /** SPQ_SANDBOX_RECORDS_PER_QUERY: records delivered per query, all selections and files together. */
    readonly recordsPerQuery: number;
    /** SPQ_SANDBOX_QUERIES_PER_DAY: sandbox executes per account in any 24 hours. */
    readonly queriesPerDay: number;
  };
  /** Email (password resets). Without SMTP, the account area points holders to the operator instead. */
  readonly mail: MailConfig;
  /** Selling bundles (docs/deploy.md, "Payments"): the catalogue, and Stripe or none. */
  readonly payments: PaymentsConfig;
}

/** One bundle of the catalogue: what a holder buys, and what it costs (in the currency's smallest unit, tax included). */
export interface CatalogueBundle {
  /** Stable id (letters, digits, "-", "_"): checkouts and purchases name it. */
  readonly id: string;
  readonly name: string;
  readonly credits: number;
  /** Days of the paid tier the bundle brings (from the moment it is bought). */
  readonly days: number;
  /** Price in the currency's smallest unit (cents), tax included. */
  readonly price: number;
  /** ISO 4217, lower case as Stripe writes it (e.g. "aud"). */
  readonly currency: string;
  /** What the price includes, said on the page (e.g. "GST included"). */
  readonly taxNote: string;
}

export interface PaymentsConfig {
  /** SPQ_PAYMENTS: "none" (the default: the operator grants bundles with `spq admin`) or "stripe". */
  readonly provider: 'none' | 'stripe';
  /** SPQ_BUNDLES: the catalogue as a JSON array (default DEFAULT_BUNDLES). */
  readonly bundles: readonly CatalogueBundle[];
  /** SPQ_OPERATOR_CONTACT: how holders reach the operator to buy a bundle when payments are off. */
  readonly operatorContact: string | undefined;
  readonly stripe: StripeConfig | undefined;
}

export interface StripeConfig {
  /** SPQ_STRIPE_SECRET_KEY (sk_live_… or sk_test_…, or a restricted rk_ key). */
  readonly secretKey: string;
  /** SPQ_STRIPE_WEBHOOK_SECRET (whsec_…): the signing secret of the webhook endpoint. */
  readonly webhookSecret: string;
  /** SPQ_STRIPE_API_URL, for tests only: where the library sends its API requests instead of api.stripe.com. */
  readonly apiUrl: string | undefined;
}

/**
 * The proxies in front of the service (a load balancer, a reverse proxy). Every per-address limit
 * (sign-in, reset, download, failed API auth) counts the client's address: the connection's, or,
 * when the connection comes from a trusted proxy, the address that proxy wrote into the header,
 * read from the right through trusted hops only. With neither setting, no header is believed.
 */
export interface TrustedProxies {
  /** SPQ_TRUSTED_PROXY_HOPS: at most this many proxies are believed (unset: as many as SPQ_TRUSTED_PROXIES allows; 0: none). */
  readonly hops: number | undefined;
  /** SPQ_TRUSTED_PROXIES: the proxies' addresses or CIDR ranges, comma-separated; a hop outside them is the client. Empty: any address (then the hop count decides). */
  readonly ranges: readonly AddressRange[];
  /** SPQ_FORWARDED_HEADER: the one header the proxies write: "x-forwarded-for" (the default) or "forwarded" (RFC 7239). */
  readonly header: 'x-forwarded-for' | 'forwarded';
}

export interface AddressRange {
  readonly address: string;
  readonly prefix: number;
  readonly family: 'ipv4' | 'ipv6';
}

export interface MailConfig {
  /** SPQ_SMTP_URL, e.g. smtps://user:pass@smtp.example.org:465 or smtp://relay:25; unset: no email is sent. */
  readonly smtpUrl: string | undefined;
  /** SPQ_MAIL_FROM: the From address of the service's email (default: no-reply@ the public host). */
  readonly from: string | undefined;
}

export interface S3Config {
  readonly endpoint: string | undefined;
  readonly region: string;
  readonly bucket: string;
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly forcePathStyle: boolean;
}

export class ConfigError extends Error {}

type Env = Readonly<Record<string, string | undefined>>;

function integer(env: Env, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < min) throw new ConfigError(`${name} must be an integer ≥ ${min}, got "${raw}"`);
  return value;
}

function text(env: Env, name: string): string | undefined {
  const raw = env[name];
  return raw === undefined || raw === '' ? undefined : raw;
}

/** Reads the optional config file: a flat JSON object of the same names as the environment variables. */
function fileEnv(env: Env): Env {
  const path = text(env, 'SPQ_CONFIG_FILE');
  if (!path) return {};
  if (!existsSync(path)) throw new ConfigError(`SPQ_CONFIG_FILE points at ${path}, which does not exist`);
  const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new ConfigError(`${path} must hold a JSON object`);
  return Object.fromEntries(Object.entries(parsed).map(([k, v]) => [k, typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v)]));
}

/** An address as the service compares it: IPv4-mapped IPv6 (::ffff:10.0.0.1) as the IPv4 address; undefined when not an IP address. */
export function plainAddress(raw: string): string | undefined {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(raw);
  const address = mapped ? mapped[1]! : raw;
  return isIP(address) === 0 ? undefined : address.toLowerCase();
}

function addressRange(text: string): AddressRange {
  const [raw = '', bits, extra] = text.split('/');
  const address = plainAddress(raw);
  const family = address === undefined ? undefined : isIP(address) === 4 ? 'ipv4' : 'ipv6';
  const widest = family === 'ipv4' ? 32 : 128;
  const prefix = bits === undefined ? widest : /^\d{1,3}$/.test(bits) ? Number(bits) : NaN;
  if (address === undefined || family === undefined || extra !== undefined || !(prefix >= 0 && prefix <= widest)) {
    throw new ConfigError(`SPQ_TRUSTED_PROXIES must list IP addresses or CIDR ranges separated by commas (e.g. "10.0.0.0/8, 2001:db8::/32"), got "${text}"`);
  }
  return { address, prefix, family };
}

function trustedProxiesConfig(env: Env): TrustedProxies {
  const rawHops = text(env, 'SPQ_TRUSTED_PROXY_HOPS');
  const hops = rawHops === undefined ? undefined : integer(env, 'SPQ_TRUSTED_PROXY_HOPS', 0);
  const ranges = (text(env, 'SPQ_TRUSTED_PROXIES') ?? '').split(',').map((r) => r.trim()).filter((r) => r !== '').map(addressRange);
  const header = (text(env, 'SPQ_FORWARDED_HEADER') ?? 'x-forwarded-for').toLowerCase();
  if (header !== 'x-forwarded-for' && header !== 'forwarded') throw new ConfigError(`SPQ_FORWARDED_HEADER must be "x-forwarded-for" or "forwarded", got "${header}"`);
  return { hops, ranges, header };
}

function mailConfig(env: Env): MailConfig {
  const smtpUrl = text(env, 'SPQ_SMTP_URL');
  if (smtpUrl !== undefined && !/^smtps?:\/\/[^/]+/.test(smtpUrl)) throw new ConfigError('SPQ_SMTP_URL must be an smtp:// or smtps:// URL, e.g. smtps://user:password@smtp.example.org:465');
  const from = text(env, 'SPQ_MAIL_FROM');
  if (from !== undefined && !/^[^\s@<>]+@[^\s@<>]+$|^[^<>]*<[^\s@<>]+@[^\s@<>]+>$/.test(from)) throw new ConfigError(`SPQ_MAIL_FROM must be an address such as no-reply@example.org or "spq <no-reply@example.org>", got "${from}"`);
  return { smtpUrl, from };
}

/** The account area's settings (sessions, links, sign-in limits, password hashing). */
function accountAreaConfig(merged: Env): Config['accountArea'] {
  return {
    sessionHours: integer(merged, 'SPQ_SESSION_HOURS', 12, 1),
    sessionIdleMinutes: integer(merged, 'SPQ_SESSION_IDLE_MINUTES', 120, 1),
    oneTimeLinkHours: integer(merged, 'SPQ_ONE_TIME_LINK_HOURS', 72, 1),
    signInAttemptsPerPair: integer(merged, 'SPQ_SIGN_IN_ATTEMPTS_PER_PAIR', 5, 1),
    signInAttemptsPerAddress: integer(merged, 'SPQ_SIGN_IN_ATTEMPTS_PER_ADDRESS', 30, 1),
    signInAttemptsPerAccount: integer(merged, 'SPQ_SIGN_IN_ATTEMPTS_PER_ACCOUNT', 20, 1),
    resetLinkMinutes: integer(merged, 'SPQ_RESET_LINK_MINUTES', 60, 1),
    resetEmailsPerHour: integer(merged, 'SPQ_RESET_EMAILS_PER_HOUR', 3, 1),
    passwordThreads: integer(merged, 'SPQ_PASSWORD_THREADS', 1, 1),
    passwordQueue: integer(merged, 'SPQ_PASSWORD_QUEUE', 16, 0),
  };
}

export function loadConfig(env: Env = process.env, overrides: Partial<Pick<Config, 'dataDir' | 'host' | 'port'>> = {}): Config {
  // Environment variables win over the config file.
  const merged: Env = { ...fileEnv(env), ...env };
  const s3 = s3ConfigOf(merged);
  const port = overrides.port ?? integer(merged, 'SPQ_PORT', 8080);
  if (port > 65535) throw new ConfigError(`SPQ_PORT must be at most 65535, got ${port}`);
  const poolDir = text(merged, 'SPQ_POOL_DIR');
  const poolVersion = text(merged, 'SPQ_POOL_VERSION');
  // The version names a directory under <dataDir>/pools when SPQ_POOL_DIR is unset.
  if (poolVersion !== undefined && (!/^[0-9A-Za-z][0-9A-Za-z._-]*$/.test(poolVersion) || poolVersion.includes('..'))) {
    throw new ConfigError(`SPQ_POOL_VERSION must be a release version such as "2021.1" (letters, digits, ".", "_", "-"), got "${poolVersion}"`);
  }
  const poolChecksum = text(merged, 'SPQ_POOL_CHECKSUM')?.toLowerCase();
  if (poolChecksum !== undefined && !/^[0-9a-f]{64}$/.test(poolChecksum)) {
    throw new ConfigError(`SPQ_POOL_CHECKSUM must be the 64 hex digits of the release's manifest checksum, got "${poolChecksum}"`);
  }
  const poolVerify = text(merged, 'SPQ_POOL_VERIFY') ?? 'sampled';
  if (poolVerify !== 'sampled' && poolVerify !== 'full') throw new ConfigError(`SPQ_POOL_VERIFY must be "sampled" or "full", got "${poolVerify}"`);
  return {
    dataDir: resolve(overrides.dataDir ?? text(merged, 'SPQ_DATA_DIR') ?? './data'),
    host: overrides.host ?? text(merged, 'SPQ_HOST') ?? '127.0.0.1',
    port,
    publicBaseUrl: text(merged, 'SPQ_PUBLIC_BASE_URL'),
    serverSecret: text(merged, 'SPQ_SERVER_SECRET'),
    databaseUrl: text(merged, 'DATABASE_URL'),
    redisUrl: text(merged, 'REDIS_URL'),
    pgPoolSize: integer(merged, 'SPQ_PG_POOL_SIZE', 10, 1),
    pgStatementTimeoutMs: integer(merged, 'SPQ_PG_STATEMENT_TIMEOUT_MS', 10_000, 1),
    redisKeyPrefix: text(merged, 'SPQ_REDIS_PREFIX') ?? 'spq:rl:',
    s3,
    poolDir: poolDir ? resolve(poolDir) : undefined,
    poolVersion,
    poolChecksum,
    poolVerify,
    metricsToken: text(merged, 'SPQ_METRICS_TOKEN'),
    testExportDelayMs: integer(merged, 'SPQ_TEST_EXPORT_DELAY_MS', 0),
    testPaymentApplyDelayMs: integer(merged, 'SPQ_TEST_PAYMENT_APPLY_DELAY_MS', 0),
    smallSuburbThreshold: integer(merged, 'SPQ_SMALL_SUBURB_THRESHOLD', 500),
    demoImplicates: integer(merged, 'SPQ_DEMO_IMPLICATES', 5, 1),
    maxRowsPerExecute: integer(merged, 'SPQ_MAX_ROWS_PER_EXECUTE', 5_000_000, 1),
    rateLimits: {
      perMinute: integer(merged, 'SPQ_RATE_PER_MINUTE', 60, 1),
      minuteWindowSeconds: integer(merged, 'SPQ_RATE_MINUTE_WINDOW_SECONDS', 60, 1),
      freePerHour: integer(merged, 'SPQ_RATE_FREE_PER_HOUR', 10, 1),
      paidPerHour: integer(merged, 'SPQ_RATE_PAID_PER_HOUR', 100, 1),
      hourWindowSeconds: integer(merged, 'SPQ_RATE_HOUR_WINDOW_SECONDS', 3600, 1),
      failedAuthPerMinute: integer(merged, 'SPQ_RATE_FAILED_AUTH_PER_MINUTE', 20, 1),
      downloadsPerMinute: integer(merged, 'SPQ_RATE_DOWNLOADS_PER_MINUTE', 120, 1),
    },
    downloadTtlDays: integer(merged, 'SPQ_DOWNLOAD_TTL_DAYS', 7, 1),
    fileGraceHours: integer(merged, 'SPQ_FILE_GRACE_HOURS', 24, 0),
    requestTimeoutMs: integer(merged, 'SPQ_REQUEST_TIMEOUT_MS', 30_000, 1000),
    headersTimeoutMs: integer(merged, 'SPQ_HEADERS_TIMEOUT_MS', 10_000, 1000),
    instanceLeaseSeconds: integer(merged, 'SPQ_INSTANCE_LEASE_SECONDS', 15, 2),
    keyRecheckMs: integer(merged, 'SPQ_KEY_RECHECK_MS', 1000, 0),
    readyIoMs: integer(merged, 'SPQ_READY_IO_MS', 1000, 10),
    logLevel: text(merged, 'SPQ_LOG_LEVEL') ?? 'info',
    trustedProxies: trustedProxiesConfig(merged),
    accountArea: accountAreaConfig(merged),
    holderLimits: {
      maxActiveKeys: integer(merged, 'SPQ_MAX_KEYS_PER_ACCOUNT', 20, 1),
      keyCreationsPerHour: integer(merged, 'SPQ_KEY_CREATIONS_PER_HOUR', 10, 1),
    },
    sandbox: {
      recordsPerSelection: integer(merged, 'SPQ_SANDBOX_RECORDS_PER_SELECTION', 100, 1),
      recordsPerQuery: integer(merged, 'SPQ_SANDBOX_RECORDS_PER_QUERY', 1000, 1),
      queriesPerDay: integer(merged, 'SPQ_SANDBOX_QUERIES_PER_DAY', 100, 1),
    },
    mail: mailConfig(merged),
    payments: paymentsConfig(merged),
  };
}

/** The catalogue when SPQ_BUNDLES is unset: two bundles in Australian dollars, GST included. */
export const DEFAULT_BUNDLES: readonly CatalogueBundle[] = [
  { id: 'starter', name: 'Starter', credits: 100, days: 30, price: 2500, currency: 'aud', taxNote: 'GST included' },
  { id: 'research', name: 'Research', credits: 500, days: 90, price: 10000, currency: 'aud', taxNote: 'GST included' },
];

function catalogueBundle(raw: unknown, index: number): CatalogueBundle {
  const where = `SPQ_BUNDLES[${index}]`;
  if (typeof raw !== 'object' || raw === null) throw new ConfigError(`${where} must be an object such as {"id":"starter","name":"Starter","credits":100,"days":30,"price":2500,"currency":"aud"}`);
  const b = raw as Record<string, unknown>;
  const whole = (name: string, min: number): number => {
    const value = b[name];
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) throw new ConfigError(`${where}.${name} must be a whole number ≥ ${min}, got ${JSON.stringify(value)}`);
    return value;
  };
  if (typeof b.id !== 'string' || !/^[A-Za-z0-9_-]{1,40}$/.test(b.id)) throw new ConfigError(`${where}.id must be 1–40 letters, digits, "-" or "_", got ${JSON.stringify(b.id)}`);
  if (typeof b.name !== 'string' || b.name.trim() === '' || b.name.length > 60) throw new ConfigError(`${where}.name must be 1–60 characters`);
  if (typeof b.currency !== 'string' || !/^[A-Za-z]{3}$/.test(b.currency)) throw new ConfigError(`${where}.currency must be a three-letter ISO 4217 code such as "aud", got ${JSON.stringify(b.currency)}`);
  const taxNote = b.tax_note === undefined ? '' : String(b.tax_note);
  return { id: b.id, name: b.name.trim(), credits: whole('credits', 1), days: whole('days', 1), price: whole('price', 1), currency: b.currency.toLowerCase(), taxNote };
}

function bundlesConfig(env: Env): readonly CatalogueBundle[] {
  const raw = text(env, 'SPQ_BUNDLES');
  if (raw === undefined) return DEFAULT_BUNDLES;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ConfigError('SPQ_BUNDLES must be a JSON array of bundles, e.g. [{"id":"starter","name":"Starter","credits":100,"days":30,"price":2500,"currency":"aud","tax_note":"GST included"}]');
  }
  if (!Array.isArray(parsed)) throw new ConfigError('SPQ_BUNDLES must be a JSON array of bundles');
  const bundles = parsed.map(catalogueBundle);
  const ids = bundles.map((b) => b.id);
  const repeated = ids.find((id, i) => ids.indexOf(id) !== i);
  if (repeated !== undefined) throw new ConfigError(`SPQ_BUNDLES names the bundle "${repeated}" twice`);
  return bundles;
}

function paymentsConfig(env: Env): PaymentsConfig {
  const provider = text(env, 'SPQ_PAYMENTS') ?? 'none';
  if (provider !== 'none' && provider !== 'stripe') throw new ConfigError(`SPQ_PAYMENTS must be "none" or "stripe", got "${provider}"`);
  const bundles = bundlesConfig(env);
  const operatorContact = text(env, 'SPQ_OPERATOR_CONTACT');
  if (provider === 'none') return { provider, bundles, operatorContact, stripe: undefined };
  const secretKey = text(env, 'SPQ_STRIPE_SECRET_KEY');
  const webhookSecret = text(env, 'SPQ_STRIPE_WEBHOOK_SECRET');
  if (secretKey === undefined || !/^(sk|rk)_(live|test)_/.test(secretKey)) throw new ConfigError('SPQ_PAYMENTS=stripe needs SPQ_STRIPE_SECRET_KEY, the secret key of the Stripe account (sk_live_… or sk_test_…)');
  if (webhookSecret === undefined || !webhookSecret.startsWith('whsec_')) throw new ConfigError('SPQ_PAYMENTS=stripe needs SPQ_STRIPE_WEBHOOK_SECRET, the signing secret of the webhook endpoint (whsec_…; docs/deploy.md, "Payments")');
  const apiUrl = text(env, 'SPQ_STRIPE_API_URL');
  if (apiUrl !== undefined && !/^https?:\/\/[^/]+\/?$/.test(apiUrl)) throw new ConfigError(`SPQ_STRIPE_API_URL must be a base URL such as http://127.0.0.1:12111, got "${apiUrl}"`);
  if (bundles.length === 0) throw new ConfigError('SPQ_PAYMENTS=stripe needs at least one bundle in SPQ_BUNDLES');
  return { provider, bundles, operatorContact, stripe: { secretKey, webhookSecret, apiUrl } };
}

/** The S3 file store's settings when SPQ_S3_BUCKET is set (else files stay on the local disk). */
function s3ConfigOf(env: Env): S3Config | undefined {
  const bucket = text(env, 'SPQ_S3_BUCKET');
  if (!bucket) return undefined;
  return {
    endpoint: text(env, 'SPQ_S3_ENDPOINT'),
    region: text(env, 'SPQ_S3_REGION') ?? 'us-east-1',
    bucket,
    accessKeyId: text(env, 'SPQ_S3_ACCESS_KEY_ID') ?? text(env, 'AWS_ACCESS_KEY_ID') ?? '',
    secretAccessKey: text(env, 'SPQ_S3_SECRET_ACCESS_KEY') ?? text(env, 'AWS_SECRET_ACCESS_KEY') ?? '',
    forcePathStyle: (text(env, 'SPQ_S3_FORCE_PATH_STYLE') ?? 'true') !== 'false',
  };
}

/** Base URL of this service as clients reach it: download links and the account area's links start with it. */
export const publicBaseUrl = (config: Pick<Config, 'publicBaseUrl' | 'host' | 'port'>): string =>
  (config.publicBaseUrl ?? `http://${config.host}:${config.port}`).replace(/\/+$/, '');

/** The effective config for `spq config`: secrets replaced by whether they are set. */
export function redactedConfig(config: Config): Record<string, unknown> {
  const redactUrl = (url: string | undefined) => (url ? url.replace(/\/\/([^@/]*)@/, '//***@') : null);
  return {
    ...config,
    serverSecret: config.serverSecret ? '(set)' : '(generated in data dir)',
    metricsToken: config.metricsToken ? '(set)' : null,
    databaseUrl: redactUrl(config.databaseUrl),
    redisUrl: redactUrl(config.redisUrl),
    mail: { ...config.mail, smtpUrl: redactUrl(config.mail.smtpUrl) },
    payments: { ...config.payments, stripe: config.payments.stripe ? { secretKey: '(set)', webhookSecret: '(set)', apiUrl: config.payments.stripe.apiUrl ?? null } : null },
    s3: config.s3 ? { ...config.s3, accessKeyId: config.s3.accessKeyId ? '(set)' : '', secretAccessKey: config.s3.secretAccessKey ? '(set)' : '' } : null,
  };
}
