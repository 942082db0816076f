/**
 * `npm run bench`: every bench in sequence, each in its own process (so one's heap and DuckDB
 * buffers do not weigh on the next), with the machine's load printed before each. The default
 * sizes are modest (a few minutes in all); --full runs each bench with the sizes that
 * docs/performance.md reports (1 M-row executes with exceljs at 1 M: about half an hour).
 * Usage: node bin/run-ts.js bench/run-all.ts [--full] [--only preview,execute,…]
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { machineLine } from './lib.ts';

const { values } = parseArgs({ options: { full: { type: 'boolean', default: false }, only: { type: 'string' } } });

const MODEST: Record<string, string[]> = {
  sampling: ['--sizes', '1000,100000'],
  preview: ['--connections', '10', '--seconds', '5'],
  auth: ['--calls', '5000'],
  export: ['--persons', '1250000', '--sizes', '1000,100000', '--exceljs-max', '100000'],
  execute: ['--persons', '250000', '--sizes', '1000,100000', '--reps', '3', '--wait-load', '0'],
  'execute-phases': ['--runs', '20'],
  memory: ['--persons', '250000', '--n', '200000', '--reps', '1'],
  scaleout: ['--seconds', '5', '--executes', '20'],
  reference: ['--loads', '3'],
  overview: ['--queries', '1000', '--calls', '20'],
};
const FULL: Record<string, string[]> = {
  sampling: [],
  preview: ['--connections', '10', '--seconds', '8', '--routes'],
  auth: [],
  export: ['--persons', '1250000', '--exceljs-max', '100000'],
  execute: [],
  'execute-phases': [],
  memory: ['--reps', '2'],
  scaleout: [],
  reference: [],
  overview: [],
};

const root = join(import.meta.dirname, '..');
const chosen = values.only ? values.only.split(',') : Object.keys(MODEST);
const failed: string[] = [];
for (const name of chosen) {
  const args = (values.full ? FULL : MODEST)[name];
  if (args === undefined) throw new Error(`no bench named "${name}" (choose from ${Object.keys(MODEST).join(', ')})`);
  process.stdout.write(`\n## bench/${name}.ts ${args.join(' ')}\n${machineLine()}\n\n`);
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn(process.execPath, [join(root, 'bin', 'run-ts.js'), join(root, 'bench', `${name}.ts`), ...args], { cwd: root, stdio: 'inherit' });
    child.on('exit', resolve);
  });
  if (code !== 0) failed.push(`${name} (exit ${code})`);
}
process.stdout.write(`\n${machineLine()}\n`);
if (failed.length > 0) {
  process.stderr.write(`failed: ${failed.join(', ')}\n`);
  process.exitCode = 1;
}
