/**
 * A stand-in for bin/spq.js with only the admin and migrate commands, for admin.test.ts while
 * the other command modules are still being written. Mirrors src/cli/main.ts.
 */
import { Command, CommanderError } from 'commander';
import { registerAdminCommands } from '../../src/cli/commands/admin.ts';
import { registerMigrateCommand } from '../../src/cli/commands/migrate.ts';

const program = new Command('spq').exitOverride().showHelpAfterError();
registerAdminCommands(program);
registerMigrateCommand(program);
try {
  await program.parseAsync(process.argv.slice(2), { from: 'user' });
} catch (error) {
  if (error instanceof CommanderError) process.exitCode = error.exitCode;
  else {
    process.stderr.write(`spq: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}
