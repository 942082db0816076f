import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Two cores: more workers only add contention for the DuckDB and SQLite tests.
    maxWorkers: 2,
    globalSetup: ['test/global-setup.ts'],
  },
});
