import type { Command } from 'commander';
import { describeStoreLocation, openAccountStore, storeLocation } from '../../adapters/db/open-store.ts';
import { loadConfig } from '../../config.ts';

/**
 * `spq migrate`: brings the database (SQLite file or DATABASE_URL) up to the current schema.
 * Safe to run while servers start: migrations take a lock (BEGIN IMMEDIATE / advisory lock).
 */
export function registerMigrateCommand(program: Command): void {
  program
    .command('migrate')
    .description('create or upgrade the database schema (the server also does this at start-up)')
    .action(async () => {
      const config = loadConfig();
      const store = await openAccountStore(config, { migrate: false });
      try {
        await store.migrate();
      } finally {
        await store.close();
      }
      process.stdout.write(`migrated: ${describeStoreLocation(storeLocation(config))}\n`);
    });
}
