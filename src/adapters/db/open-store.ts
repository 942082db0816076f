import { join } from 'node:path';
import { ConfigError, type Config } from '../../config.ts';
import type { AccountStore } from '../../ports/account-store.ts';
import { createPostgresAccountStore } from './postgres.ts';
import { createSqliteAccountStore } from './sqlite.ts';

export const SQLITE_FILE_NAME = 'spq.sqlite';

export type StoreLocation = { readonly kind: 'sqlite'; readonly file: string } | { readonly kind: 'postgres'; readonly url: string };

/** Which database a config names: PostgreSQL when DATABASE_URL is a postgres:// URL, else <dataDir>/spq.sqlite. */
export function storeLocation(config: Config): StoreLocation {
  const url = config.databaseUrl;
  if (url === undefined) return { kind: 'sqlite', file: join(config.dataDir, SQLITE_FILE_NAME) };
  if (/^postgres(ql)?:\/\//i.test(url)) return { kind: 'postgres', url };
  throw new ConfigError('DATABASE_URL must be a postgres:// or postgresql:// URL (unset it to use the embedded SQLite file)');
}

/** For messages: where the data lives, without credentials. */
export function describeStoreLocation(location: StoreLocation): string {
  if (location.kind === 'sqlite') return `SQLite file ${location.file}`;
  const parsed = new URL(location.url);
  return `PostgreSQL ${parsed.hostname}${parsed.port ? `:${parsed.port}` : ''}${parsed.pathname}`;
}

/**
 * Opens the AccountStore the server and the admin CLI share, and (by default) brings its schema
 * up to date; migrations take a lock, so concurrent starts are safe.
 */
export async function openAccountStore(config: Config, options: { readonly migrate?: boolean } = {}): Promise<AccountStore> {
  const location = storeLocation(config);
  const store =
    location.kind === 'sqlite'
      ? createSqliteAccountStore({ file: location.file })
      : createPostgresAccountStore({ url: location.url, maxConnections: config.pgPoolSize, statementTimeoutMs: config.pgStatementTimeoutMs });
  if (options.migrate ?? true) {
    try {
      await store.migrate();
    } catch (error) {
      await store.close();
      throw error;
    }
  }
  return store;
}
