import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Command } from 'commander';
import type { FastifyBaseLogger } from 'fastify';
import type { ServiceLog, Services } from '../../main/compose.ts';
import { loadConfig } from '../../config.ts';
import { firstLevelRoot, isFirstLevelRelease, poolsRoot } from '../../adapters/pools/release-dirs.ts';
import { DEMO_VERSION } from '../../release-builder/releases.ts'; // a constant only: the builder loads when it is needed
import { configOverrides, parseLevels, populationOption, portOption } from '../options.ts';

const SWEEP_INTERVAL_MS = 15 * 60_000;
const DEMO_EMAIL = 'demo@spq.local';

const say = (line: string) => process.stderr.write(`${line}\n`);

/**
 * `spq serve`: config (with overrides) → demo pools if needed → adapters → crash recovery →
 * demo account on an empty database (its key printed once) → listen → sweeper. SIGINT/SIGTERM
 * refuse new executes (503), finish the running ones, then close everything.
 */
export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description('run the HTTP API (builds the demo pools and a demo account on first start)')
    .option('--data-dir <dir>', 'data directory (SPQ_DATA_DIR, default ./data)')
    .option('--host <host>', 'address to listen on (SPQ_HOST, default 127.0.0.1)')
    .option('--port <port>', 'port to listen on (SPQ_PORT, default 8080)', portOption)
    .option('--inputs <dir>', 'on a data directory with no release: build it from these ABS DataPack files (e.g. census/2021-gcp) instead of the demo inputs')
    .option('--levels <list>', 'with --inputs: the levels to fit (comma list of sal, sa2, poa, lga)', 'sal')
    .option('--population <file>', 'with --inputs: size every area to the ABS estimated resident population in this file (as spq build --population)')
    .option('--population-year <yyyy>', 'with --population: the year to size to, needed when the file holds several')
    .option('--census-counts', 'with --inputs: size the areas to the 2021 Census counts, whatever --population says (use another --data-dir than the sized release\'s)')
    .action(serve);
}

interface ServeOptions {
  readonly dataDir?: string;
  readonly host?: string;
  readonly port?: number;
  readonly inputs?: string;
  readonly levels: string;
  readonly population?: string;
  readonly populationYear?: string;
  readonly censusCounts?: boolean;
}

type Config = ReturnType<typeof loadConfig>;
type App = ReturnType<typeof import('../../http/app.ts').buildApp>;
type OpsLog = import('../../app/deps.ts').OpsLog;

async function serve(options: ServeOptions): Promise<void> {
  const levels = parseLevels(options.levels);
  // Loaded here, not at the top: `spq --help` and the other commands do not load the server.
  const [{ composeServices, publicBaseUrl }, { Drain }, maintenance, { buildApp }, { QUERY_LEVEL_OF_AREA }] = await Promise.all([
    import('../../main/compose.ts'),
    import('../../app/drain.ts'),
    import('../../app/maintenance.ts'),
    import('../../http/app.ts'),
    import('../../core/dataset.ts'),
  ]);
  const config = loadConfig(process.env, configOverrides(options));
  const startupLog = logToStderrUntilListening();
  // The release builder is loaded only when the data directory holds no release yet.
  const population = options.censusCounts ? undefined : populationOption(options);
  const inputs = options.inputs !== undefined ? { inputsDir: options.inputs, levels, ...(population ? { population } : {}) } : undefined;
  const demoRelease = async (c: typeof config, log: (line: string) => void) => (await import('../../release-builder/index.ts')).ensureDemoRelease(c, log, inputs);
  const services = await composeServices(config, startupLog.serviceLog, { demoRelease });
  // Serving a first level: the others are building from the moment it listens (/readyz, a query at one of them).
  if (inputs !== undefined && isFirstLevelRelease(config.dataDir, services.poolDir)) {
    services.setBuilding({ levels: inputs.levels.map((l) => QUERY_LEVEL_OF_AREA[l]).filter((l) => !services.pools.levels.includes(l)), secondsLeft: () => 60 });
  }
  const drain = new Drain();
  const app = buildApp({ ...services, logger: { level: config.logLevel }, drain });
  const opsLog = opsLogOf(app);
  let releaseLease = async () => undefined as void;
  try {
    await recoverInterruptedWork(config, services, opsLog);
    if ((await services.accounts.listAccounts()).length === 0) await createDemoAccount(config, services);
    releaseLease = await maintenance.holdInstanceLease(services, opsLog, services.instanceId, config.instanceLeaseSeconds * 1000, join(config.dataDir, 'tmp'));
    await app.listen({ host: config.host, port: config.port });
    startupLog.switchTo(app.log);
    for (const line of services.description) say(line);
    for (const line of (await import('../../main/deployment-warnings.ts')).deploymentWarnings(config)) say(line);
    say(`listening on ${publicBaseUrl(config)} (reference: /docs)`);
  } catch (error) {
    await releaseLease().catch(() => undefined);
    await app.close().catch(() => undefined);
    await services.close();
    throw error;
  }
  const stopSweeper = maintenance.startSweeper(services, opsLog, SWEEP_INTERVAL_MS);
  const stopBuilding = new AbortController();
  const implicatesBuilt = buildDemoImplicates(config, services, app, stopBuilding.signal);
  const levelsBuilt = buildRemainingLevels(config, services, inputs, stopBuilding.signal);
  await untilSignalled((signal) => {
    say(`${signal}: finishing ${drain.inFlight} running execute(s), refusing new ones`);
    return (async () => {
      stopBuilding.abort();
      await drain.drain();
      await implicatesBuilt;
      await levelsBuilt;
      await app.close();
      await stopSweeper();
      await releaseLease();
      await services.close();
      say('stopped');
    })();
  });
}

/** Adapters' reports go to stderr during start-up and into the JSON log once it exists. */
function logToStderrUntilListening(): { readonly serviceLog: ServiceLog; switchTo(log: FastifyBaseLogger): void } {
  let jsonLog: FastifyBaseLogger | undefined;
  return {
    serviceLog: (line, level = 'info') => {
      if (jsonLog !== undefined) jsonLog[level](line);
      else say(level === 'warn' ? `warning: ${line}` : line);
    },
    switchTo: (log) => {
      jsonLog = log;
    },
  };
}

const opsLogOf = (app: App): OpsLog => ({
  info: (fields: Record<string, unknown>, message: string) => app.log.info(fields, message),
  error: (fields: Record<string, unknown>, message: string) => app.log.error(fields, message),
});

/**
 * Embedded (SQLite, one process holding its lock): nothing else can be mid-execute, so every
 * pending execute was cut off by a crash: refund it now, and clear what the crash left in the
 * temp directory. Scale-out: other instances may be mid-execute; those of instances whose lease
 * lapsed are refunded now and by every lease renewal (holdInstanceLease), and rows from before
 * leases once past PENDING_TIMEOUT_MS.
 */
async function recoverInterruptedWork(config: Config, services: Services, opsLog: OpsLog): Promise<void> {
  const { PARTIAL_IDLE_MS, PENDING_TIMEOUT_MS, collectFailedFiles, recoverLapsedInstances, recoverPendingQueries, removeOrphanTemps, removeStalePartials } = await import(
    '../../app/maintenance.ts'
  );
  const embedded = config.databaseUrl === undefined;
  const refunded =
    (await recoverPendingQueries(services, opsLog, embedded ? 0 : PENDING_TIMEOUT_MS)) + (embedded ? 0 : await recoverLapsedInstances(services, opsLog));
  if (refunded > 0) say(`refunded ${refunded} quer${refunded === 1 ? 'y' : 'ies'} interrupted by an earlier stop`);
  // A payment event recorded by a process that stopped before applying it: applied now, once
  // (applying is conditional on its status, so an instance applying it at this moment is harmless).
  const { recoverPaymentEvents } = await import('../../app/payments.ts');
  const applied = await recoverPaymentEvents(services, opsLog);
  if (applied > 0) say(`applied ${applied} payment event${applied === 1 ? '' : 's'} recorded before an earlier stop`);
  // One embedded instance owns its data directory, so no upload can still be under way: the files of
  // refunded queries (a stop between a refund and its delete left them) go now, not an hour later.
  if (embedded) await collectFailedFiles(services, opsLog, 0);
  const removed = await removeOrphanTemps(join(config.dataDir, 'tmp'), new Set(embedded ? [] : await services.accounts.liveInstances(services.clock.now())));
  if (removed > 0) say(`removed ${removed} temporary file${removed === 1 ? '' : 's'} left by an earlier stop`);
  // Embedded, nothing is compressing yet: every partial copy in the store is a crash's. Instances
  // sharing a store may be writing theirs: only those idle past PARTIAL_IDLE_MS go.
  const now = services.clock.now().getTime();
  await removeStalePartials(services, opsLog, new Date(embedded ? now + 1 : now - PARTIAL_IDLE_MS));
}

/** On an empty database: the demo account, paid for a year, its key printed once and a link to set its password. */
async function createDemoAccount(config: Config, services: Services): Promise<void> {
  const [{ createAccountWithKey }, { publicBaseUrl }, { issueOneTimeLink }] = await Promise.all([
    import('../../app/accounts.ts'),
    import('../../main/compose.ts'),
    import('../../app/web/sign-in.ts'),
  ]);
  // Instances started together on an empty shared database race here: the email's unique
  // index lets one create the demo account; the others find it made and start as usual.
  const demo = await createAccountWithKey({ store: services.accounts, serverSecret: services.serverSecret, clock: services.clock }, { email: DEMO_EMAIL }).catch(
    async (error: unknown) => {
      if ((await services.accounts.listAccounts()).some((a) => a.email === DEMO_EMAIL)) return undefined;
      throw error;
    },
  );
  if (demo === undefined) say('demo account created by another instance');
  else if (demo.ok) {
    // A year's bundle makes the demo account paid, so a walk-through is not stopped by the free tier's 10 requests an hour.
    await services.accounts.addBundle({ accountId: demo.value.account.accountId, credits: 100, days: 365, now: services.clock.now() });
    say(`demo account ${demo.value.account.accountId} created on the paid tier with 100 credits (a 365-day bundle). Its API key, shown only this once:`);
    process.stdout.write(`${demo.value.apiKey}\n`);
    const link = await issueOneTimeLink({ ...services, credentials: services.accounts }, { accountId: demo.value.account.accountId, purpose: 'invitation' });
    if (link.ok) say(`account area for ${DEMO_EMAIL}: set its password at ${publicBaseUrl(config)}${link.value.path} (works once, for ${config.accountArea.oneTimeLinkHours} hours)`);
  }
}

/**
 * The demo's extra implicates, after listening: the first start stays as quick as one synthesis.
 * (The release builder is loaded only for the demo release: serving another loads no synthesis.)
 */
function buildDemoImplicates(config: Config, services: Services, app: App, signal: AbortSignal): Promise<unknown> {
  if (services.poolDir !== join(poolsRoot(config.dataDir), DEMO_VERSION) || config.demoImplicates <= 1) return Promise.resolve();
  return import('../../release-builder/index.ts')
    .then(({ completeDemoImplicates }) => completeDemoImplicates(config, services.poolDir, (line) => app.log.info(line), signal))
    .catch((error: unknown) => app.log.error({ err: error }, 'building the demo implicates failed; the release serves those it has'));
}

/**
 * `--inputs` with several levels on a data directory without the complete release: the service
 * listens serving one level, and the complete release is built in the background and served in
 * its place (the release builder's completeInBackground). Loaded only then: a start on a complete
 * release loads no synthesis (it only removes the first level's release an earlier start left).
 */
function buildRemainingLevels(config: Config, services: Services, inputs: import('../../release-builder/ensure-demo.ts').ReleaseInputs | undefined, signal: AbortSignal): Promise<unknown> {
  if (inputs === undefined || inputs.levels.length < 2 || !existsSync(firstLevelRoot(config.dataDir))) return Promise.resolve();
  if (!isFirstLevelRelease(config.dataDir, services.poolDir)) return rm(firstLevelRoot(config.dataDir), { recursive: true, force: true }).catch(() => undefined);
  return import('../../release-builder/index.ts')
    .then(({ completeInBackground, censusVersionOf, DEMO_SEED }) =>
      completeInBackground(config, services.poolDir, { ...inputs, version: censusVersionOf(inputs), seed: DEMO_SEED }, {
        log: say,
        signal,
        building: (status) => services.setBuilding(status),
        serve: (dir) => services.switchRelease(dir),
      }),
    )
    .catch((error: unknown) => say(`building the remaining levels failed; serving what was built: ${error instanceof Error ? error.message : String(error)}`));
}


/** Waits for SIGINT or SIGTERM, then runs `stop` once (a second signal is left to Node's default). */
function untilSignalled(stop: (signal: string) => Promise<void>): Promise<void> {
  return new Promise<void>((resolve) => {
    const shutdown = (signal: string) => {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      void stop(signal).then(resolve);
    };
    const onInt = () => shutdown('SIGINT');
    const onTerm = () => shutdown('SIGTERM');
    process.on('SIGINT', onInt);
    process.on('SIGTERM', onTerm);
  });
}
