import { Command, CommanderError } from 'commander';
import { readFileSync } from 'node:fs';
import { registerCommands } from './commands/index.ts';

/** The version in package.json (the one the release is published under), from src/cli or dist/src/cli. */
function packageVersion(): string {
  for (const up of ['../../package.json', '../../../package.json']) {
    try {
      return (JSON.parse(readFileSync(new URL(up, import.meta.url), 'utf8')) as { name: string; version: string }).version;
    } catch {
      // not at this level
    }
  }
  return 'unknown';
}

/** Entry point of the `spq` command; returns the process exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  const program = new Command('spq')
    .description('Synthetic Population Query service')
    .version(packageVersion(), '-V, --version', 'print the version of spq')
    // `spq build --version <v>` names a release: program options only before the command.
    .enablePositionalOptions()
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
