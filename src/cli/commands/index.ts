import type { Command } from 'commander';
import { registerAdminCommands } from './admin.ts';
import { registerBuildCommand } from './build.ts';
import { registerClientCommand } from './client.ts';
import { registerConfigCommand } from './config.ts';
import { registerDemoInputsCommand } from './demo-inputs.ts';
import { registerMigrateCommand } from './migrate.ts';
import { registerServeCommand } from './serve.ts';

/** Each command lives in its own module; this is the one list of them. */
export function registerCommands(program: Command): void {
  registerServeCommand(program);
  registerBuildCommand(program);
  registerDemoInputsCommand(program);
  registerAdminCommands(program);
  registerMigrateCommand(program);
  registerConfigCommand(program);
  registerClientCommand(program);
}
