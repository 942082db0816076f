import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import type { AccountAdminDeps } from '../../app/accounts.ts';
import { loadConfig, publicBaseUrl, type Config } from '../../config.ts';
import type { CredentialStore } from '../../ports/credential-store.ts';
import type { AppError } from '../../core/errors.ts';
import type { Result } from '../../core/result.ts';
import type { ApiKeyRecord, CreditSummary, Tier } from '../../ports/account-store.ts';
import { systemClock } from '../../ports/clock.ts';
import { configOverrides, portOption, type ServerLocation } from '../options.ts';
import { registerPaymentCommands } from './admin-payments.ts';

/** The server's location flags of this `spq admin` run (set before its action runs). */
let location: ServerLocation = {};
/** The config the server would run with, under this run's flags. */
const adminConfig = (): Config => loadConfig(process.env, location);

/** Exit code for anything the operator typed wrong (bad option, unknown id): nothing was changed. */
export const EXIT_BAD_INPUT = 2;

const out = (line: string) => process.stdout.write(`${line}\n`);

function wholeNumberOption(name: string) {
  return (value: string): number => {
    if (!/^\d+$/.test(value.trim())) throw new InvalidArgumentError(`${name} must be a whole number, got "${value}"`);
    return Number(value);
  };
}

type AccountUseCases = typeof import('../../app/accounts.ts') & typeof import('../../app/web/sign-in.ts');
/** What the admin commands act with: the account store and, for account-area links, the credential store and config. */
type AdminDeps = AccountAdminDeps & { readonly credentials: CredentialStore; readonly config: Config };

/**
 * Opens the store the server uses (same config), runs one use case, closes the store. The store
 * and the use cases are loaded here, on demand, so `spq --help` loads none of them.
 */
async function runAdmin<T>(use: (deps: AdminDeps, cases: AccountUseCases) => Promise<Result<T, AppError>>, show: (value: T) => void): Promise<void> {
  const [{ openAccountStore }, { loadServerSecret }, accountCases, signInCases] = await Promise.all([
    import('../../adapters/db/open-store.ts'),
    import('../../adapters/db/server-secret.ts'),
    import('../../app/accounts.ts'),
    import('../../app/web/sign-in.ts'),
  ]);
  const config = adminConfig();
  const store = await openAccountStore(config);
  // Scale-out: a revocation is announced to the serving instances, which hold keys in memory
  // (embedded, the server rereads each key within SPQ_KEY_RECHECK_MS).
  const keyRevocations =
    config.redisUrl === undefined
      ? undefined
      : (await import('../../adapters/revocations/redis.ts')).createRedisRevocations({
          url: config.redisUrl,
          keyPrefix: config.redisKeyPrefix,
          subscribe: false,
          log: (e) => process.stderr.write(`spq: ${e.msg}${e.err ? ` (${e.err})` : ''}\n`),
        });
  try {
    const deps = { store, credentials: store, config, serverSecret: loadServerSecret(config), clock: systemClock, ...(keyRevocations ? { keyRevocations } : {}) };
    const result = await use(deps, { ...accountCases, ...signInCases });
    if (result.ok) show(result.value);
    else {
      process.stderr.write(`spq: ${result.error.detail}\n`);
      process.exitCode = EXIT_BAD_INPUT;
    }
  } finally {
    await keyRevocations?.close();
    await store.close();
  }
}

function describeBalance(s: CreditSummary): string {
  const purchased = s.creditsRemaining - s.freeCreditsRemaining;
  return `balance ${s.creditsRemaining} credits (free ${s.freeCreditsRemaining}, purchased ${purchased}), tier ${s.tier}`;
}

function keyLine(k: ApiKeyRecord): string {
  const state = k.revokedAt ? `revoked ${k.revokedAt.toISOString()}` : 'active';
  return `${k.keyId}  ${k.prefix}…${k.last4}  created ${k.createdAt.toISOString()}  ${state}`;
}

/** The balance as GET /account/credits names its fields. */
const balanceJson = (s: CreditSummary) => ({
  tier: s.tier,
  credits_remaining: s.creditsRemaining,
  free_credits_remaining: s.freeCreditsRemaining,
  credits_purchased: s.creditsPurchased,
  credits_used: s.creditsUsed,
  free_credits_reset: s.freeCreditsReset ? s.freeCreditsReset.toISOString() : null,
});

const keyJson = (k: ApiKeyRecord) => ({
  key_id: k.keyId,
  account_id: k.accountId,
  prefix: k.prefix,
  last4: k.last4,
  created_at: k.createdAt.toISOString(),
  revoked_at: k.revokedAt ? k.revokedAt.toISOString() : null,
});

const SHOWN_ONCE = 'This key is shown once and cannot be retrieved later: store it now.';

/** `spq admin …`: the operator's account, key, credit and bundle commands. */
export function registerAdminCommands(program: Command): void {
  const admin = adminCommand(program);
  registerAccountCommands(admin);
  registerKeyCommands(admin);
  registerCreditCommands(admin);
  registerWhereCommand(admin);
  registerPaymentCommands(admin, { run: runAdmin, out });
}

/** `spq admin` itself: the server-location flags every subcommand shares, and usage errors exiting with 2. */
function adminCommand(program: Command): Command {
  const admin = program
    .command('admin')
    .description('manage accounts, API keys, credits and bundles (acts on the database the server uses)')
    // The same resolution as `spq serve`: flags, then SPQ_* variables, then defaults; the links it prints name this server.
    .option('--data-dir <dir>', 'data directory of the server (SPQ_DATA_DIR, default ./data)')
    .option('--host <host>', 'the server\'s address, for the links printed (SPQ_HOST; SPQ_PUBLIC_BASE_URL wins)')
    .option('--port <port>', 'the server\'s port, for the links printed (SPQ_PORT; SPQ_PUBLIC_BASE_URL wins)', portOption)
    .hook('preAction', (command) => {
      location = configOverrides(command.opts<ServerLocation>());
    })
    // Every usage error below (unknown option, missing value, bad number) exits with 2.
    .exitOverride((error) => {
      throw error.exitCode === 0 ? error : new CommanderError(EXIT_BAD_INPUT, error.code, error.message);
    });
  return admin;
}

function registerAccountCommands(admin: Command): void {
  const account = admin.command('account').description('accounts');
  account
    .command('create')
    .description('create an account and its first live API key (printed once)')
    .requiredOption('--email <email>', "the account holder's email (unique)")
    .addOption(new Option('--tier <tier>', 'free, or paid: paid adds a credit bundle (see --credits, --days)').choices(['free', 'paid']).default('free'))
    .option('--credits <n>', 'with --tier paid: credits in the bundle (default 100)', wholeNumberOption('--credits'))
    .option('--days <d>', 'with --tier paid: how long the account stays paid (default 30)', wholeNumberOption('--days'))
    .option('--json', 'print {"account_id", "api_key"} as JSON')
    .action(createAccount);

  account
    .command('invite')
    .description("print a one-time link with which the holder sets (or resets) their account-area password; their other sessions end when it is used")
    .requiredOption('--account <id>', 'account id (acc_…)')
    .option('--reset', 'a password reset (the same page; the old password stops working once the link is used)')
    .option('--json', 'print {"account_id", "url", "expires"} as JSON')
    .action(async (opts: { account: string; reset?: boolean; json?: boolean }) => {
      await runAdmin(
        (deps, cases) => cases.issueOneTimeLink(deps, { accountId: opts.account, purpose: opts.reset ? 'reset' : 'invitation' }),
        (link) => {
          const url = `${publicBaseUrl(adminConfig())}${link.path}`;
          if (opts.json) out(JSON.stringify({ account_id: opts.account, url, expires: link.expiresAt.toISOString() }));
          else {
            out(`link (works once, until ${link.expiresAt.toISOString()}):`);
            out(`  ${url}`);
          }
        },
      );
    });
}

/** `spq admin account create`: the account, its first key, and an invitation link to the account area. */
async function createAccount(opts: { email: string; tier: Tier; credits?: number; days?: number; json?: boolean }): Promise<void> {
  const bundle = opts.credits !== undefined || opts.days !== undefined ? { credits: opts.credits ?? 100, days: opts.days ?? 30 } : undefined;
  await runAdmin(
    async (deps, cases) => {
      const created = await cases.createAccountWithKey(deps, { email: opts.email, tier: opts.tier, ...(bundle ? { bundle } : {}) });
      if (!created.ok) return created;
      const link = await cases.issueOneTimeLink(deps, { accountId: created.value.account.accountId, purpose: 'invitation' });
      if (!link.ok) return link;
      return { ok: true as const, value: { ...created.value, link: { url: `${publicBaseUrl(deps.config)}${link.value.path}`, expiresAt: link.value.expiresAt } } };
    },
    (created) => {
      if (opts.json) {
        out(JSON.stringify({ account_id: created.account.accountId, api_key: created.apiKey, invitation_url: created.link.url, invitation_expires: created.link.expiresAt.toISOString() }));
      } else {
        out(`account_id: ${created.account.accountId}`);
        out(`email:      ${created.account.email}`);
        out(`key_id:     ${created.key.keyId}`);
        out(`api_key:    ${created.apiKey}`);
        out(SHOWN_ONCE);
        out(`account area: send the holder this link to set their password (works once, until ${created.link.expiresAt.toISOString()}):`);
        out(`  ${created.link.url}`);
      }
    },
  );
}

function registerKeyCommands(admin: Command): void {
  const key = admin.command('key').description('API keys');
  key
    .command('create')
    .description('create another live API key for an account (printed once; existing keys keep working)')
    .requiredOption('--account <id>', 'account id (acc_…)')
    .option('--sandbox', 'create a spq_test_ sandbox key instead of a live key')
    .option('--json', 'print {"account_id", "key_id", "api_key"} as JSON')
    .action(async (opts: { account: string; sandbox?: boolean; json?: boolean }) => {
      await runAdmin(
        (deps, cases) => cases.createKey(deps, { accountId: opts.account, kind: opts.sandbox ? 'test' : 'live' }),
        (created) => {
          if (opts.json) out(JSON.stringify({ account_id: created.key.accountId, key_id: created.key.keyId, api_key: created.apiKey }));
          else {
            out(`key_id:  ${created.key.keyId}`);
            out(`api_key: ${created.apiKey}`);
            out(SHOWN_ONCE);
          }
        },
      );
    });
  key
    .command('list')
    .description("list an account's keys (prefix and last four characters only)")
    .requiredOption('--account <id>', 'account id (acc_…)')
    .option('--json', 'print a JSON array')
    .action(async (opts: { account: string; json?: boolean }) => {
      await runAdmin(
        (deps, cases) => cases.listKeys(deps, opts.account),
        (keys) => {
          if (opts.json) out(JSON.stringify(keys.map(keyJson)));
          else if (keys.length === 0) out('no keys');
          else keys.forEach((k) => out(keyLine(k)));
        },
      );
    });
  key
    .command('revoke')
    .description('revoke a key: refused by every instance within a second (at once where they share a Redis)')
    .requiredOption('--key-id <kid>', 'key id (key_…)')
    .option('--json', 'print {"key_id", "revoked"} as JSON')
    .action(async (opts: { keyId: string; json?: boolean }) => {
      await runAdmin(
        (deps, cases) => cases.revokeKey(deps, opts.keyId),
        () => out(opts.json ? JSON.stringify({ key_id: opts.keyId, revoked: true }) : `revoked ${opts.keyId}`),
      );
    });
}

/** Credit grants and bundles. */
function registerCreditCommands(admin: Command): void {
  admin
    .command('credits')
    .description('credits')
    .command('grant')
    .description('add credits to an account (purchased credits: they do not expire; the tier does not change)')
    .requiredOption('--account <id>', 'account id (acc_…)')
    .requiredOption('--credits <n>', 'credits to add (≥ 1)', wholeNumberOption('--credits'))
    .option('--note <text>', 'why (kept in the ledger)')
    .option('--json', 'print the account\'s balance after the grant as JSON')
    .action(async (opts: { account: string; credits: number; note?: string; json?: boolean }) => {
      await runAdmin(
        (deps, cases) => cases.grantCredits(deps, { accountId: opts.account, credits: opts.credits, ...(opts.note ? { note: opts.note } : {}) }),
        (summary) => out(opts.json ? JSON.stringify({ account_id: opts.account, granted: opts.credits, ...balanceJson(summary) }) : `granted ${opts.credits} credits to ${opts.account}; ${describeBalance(summary)}`),
      );
    });

  admin
    .command('bundle')
    .description('credit bundles')
    .command('add')
    .description('add a bundle: its credits (which never expire) and the paid tier for D days')
    .requiredOption('--account <id>', 'account id (acc_…)')
    .requiredOption('--credits <n>', 'credits in the bundle (≥ 0)', wholeNumberOption('--credits'))
    .requiredOption('--days <d>', 'days the account is paid (≥ 1)', wholeNumberOption('--days'))
    .option('--json', 'print the account\'s balance after the bundle as JSON')
    .action(async (opts: { account: string; credits: number; days: number; json?: boolean }) => {
      await runAdmin(
        (deps, cases) => cases.addBundle(deps, { accountId: opts.account, credits: opts.credits, days: opts.days }),
        (summary) =>
          out(
            opts.json
              ? JSON.stringify({ account_id: opts.account, bundle: { credits: opts.credits, days: opts.days }, ...balanceJson(summary) })
              : `added a bundle of ${opts.credits} credits for ${opts.days} days to ${opts.account}; ${describeBalance(summary)}`,
          ),
      );
    });
}

function registerWhereCommand(admin: Command): void {
  admin
    .command('where')
    .description('print which database the admin commands (and the server) use')
    .option('--json', 'print {"kind", "database"} as JSON')
    .action(async (opts: { json?: boolean }) => {
      const { describeStoreLocation, storeLocation } = await import('../../adapters/db/open-store.ts');
      const location = storeLocation(adminConfig());
      // Never the URL itself: it may carry a password.
      out(opts.json ? JSON.stringify({ kind: location.kind, database: describeStoreLocation(location) }) : describeStoreLocation(location));
    });
}
