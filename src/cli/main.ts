import { Command, CommanderError } from 'commander';
import { registerCommands } from './commands/index.ts';

/** Entry point of the `spq` command; returns the process exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  const program = new Command('spq')
    .description('Synthetic Population Query service')
    .exitOverride()
    .showHelpAfterError();
  registerCommands(program);
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`spq: ${message}\n`);
    return 1;
  }
}
