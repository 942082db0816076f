import type { Command } from 'commander';
import { loadConfig } from '../../config.ts';

/**
 * `spq migrate`: brings the database (SQLite file or DATABASE_URL) up to the current schema.
 * Safe to run while servers start: migrations take a lock (BEGIN IMMEDIATE / advisory lock).
 */
export function registerMigrateCommand(program: Command): void {
  program
    .command('migrate')
    .description('create or upgrade the database schema (the server also does this at start-up)')
    .option('--json', 'print {"migrated": true, "database"} as JSON')
    .action(async (opts: { json?: boolean }) => {
      const { describeStoreLocation, openAccountStore, storeLocation } = await import('../../adapters/db/open-store.ts');
      const config = loadConfig();
      const store = await openAccountStore(config, { migrate: false });
      try {
        await store.migrate();
      } finally {
        await store.close();
      }
      const database = describeStoreLocation(storeLocation(config));
      process.stdout.write(opts.json ? `${JSON.stringify({ migrated: true, database })}\n` : `migrated: ${database}\n`);
    });
}
