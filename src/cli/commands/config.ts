import type { Command } from 'commander';
import { loadConfig, redactedConfig } from '../../config.ts';

export function registerConfigCommand(program: Command): void {
  program
    .command('config')
    .description('print the effective configuration (secrets are not shown)')
    .action(() => {
      process.stdout.write(`${JSON.stringify(redactedConfig(loadConfig()), null, 2)}\n`);
    });
}
