/**
 * The build's speed against a baseline checkout, in one command (issue 29 item 4): the same
 * `spq build` of the same inputs by the baseline's code and by this checkout's, alternating
 * (A B B A …) so that both see the same load, each in its own process under /usr/bin/time.
 * Prints per run the wall and CPU seconds, peak RSS and the load average; then the ratios
 * (this / baseline, medians) and whether the outputs are identical: the sha-256 of every column
 * file and the fit figures of `--json` (everything but seconds, peak RSS and the directory).
 *
 * Usage: node bin/run-ts.js bench/build-speed.ts --baseline DIR [--inputs DIR | --demo]
 *        [--levels poa] [--rounds 1]
 *   --baseline  a checkout of the code to compare with, dist/ compiled (`git archive main | tar -x
 *               -C DIR`, node_modules linked, `node scripts/build.mjs`)
 *   --demo      the shipped demo inputs (src/demo/inputs.pack.gz) instead of --inputs
 * A round is one build by each; rounds alternate which goes first.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { SHIPPED_DEMO_INPUTS, unpackInto } from '../src/demo/shipped-inputs.ts';
import { machineLine, median } from './lib.ts';

const { values } = parseArgs({
  options: {
    baseline: { type: 'string' },
    inputs: { type: 'string' },
    demo: { type: 'boolean', default: false },
    levels: { type: 'string', default: 'sal' },
    rounds: { type: 'string', default: '1' },
  },
});
if (!values.baseline) throw new Error('--baseline DIR (a checkout of the code to compare with, dist/ compiled) is required');
if (!values.inputs && !values.demo) throw new Error('--inputs DIR or --demo is required');
const work = mkdtempSync(join(tmpdir(), 'spq-build-speed-'));
const inputs = values.demo ? join(work, 'inputs') : resolve(values.inputs!);
if (values.demo) unpackInto(readFileSync(SHIPPED_DEMO_INPUTS), inputs);
const checkouts = { baseline: resolve(values.baseline), this: resolve(import.meta.dirname, '..') } as const;
type Which = keyof typeof checkouts;

interface Run {
  readonly which: Which;
  readonly wall: number;
  readonly cpu: number;
  readonly peakMb: number;
  readonly load: string;
  readonly columns: string;
  readonly figures: string;
}

/** One digest of every column file (path and bytes), in path order. */
function columnsDigest(release: string): string {
  const root = join(release, 'columns');
  const files = readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .sort();
  const hash = createHash('sha256');
  for (const file of files) hash.update(`${relative(root, file)}\n`).update(createHash('sha256').update(readFileSync(file)).digest('hex'));
  return hash.digest('hex');
}

const loadNow = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

function build(which: Which): Run {
  const out = join(work, `pools-${which}`);
  const timing = join(work, 'time.txt');
  const before = loadNow();
  const child = spawnSync(
    '/usr/bin/time',
    ['-f', '%e %U %S %M', '-o', timing, process.execPath, join(checkouts[which], 'bin', 'spq.js'), 'build', '--inputs', inputs, '--out', out, '--levels', values.levels!, '--json'],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 1 << 28 },
  );
  if (child.status !== 0) throw new Error(`${which}: spq build exited ${child.status}`);
  const [wall, user, sys, maxKb] = readFileSync(timing, 'utf8').trim().split(/\s+/).slice(-4).map(Number) as [number, number, number, number];
  // phases: timings (issue 42), absent from builds before it.
  const { seconds: _s, peak_rss_mb: _p, dir, checksum: _c, implicates: _i, phases: _ph, ...figures } = JSON.parse(child.stdout) as Record<string, unknown> & { dir: string };
  const run: Run = { which, wall, cpu: user + sys, peakMb: Math.round(maxKb / 1024), load: `${before} → ${loadNow()}`, columns: columnsDigest(dir), figures: JSON.stringify(figures) };
  rmSync(out, { recursive: true, force: true });
  process.stdout.write(`${which.padEnd(8)} wall ${wall.toFixed(1)} s, cpu ${run.cpu.toFixed(1)} s, peak ${run.peakMb} MB, load ${run.load}\n`);
  return run;
}

process.stdout.write(`${machineLine()}; inputs ${values.demo ? 'demo (shipped pack)' : inputs}, levels ${values.levels}\n`);
const runs: Run[] = [];
for (let round = 0; round < Number(values.rounds); round++) {
  const order: Which[] = round % 2 === 0 ? ['baseline', 'this'] : ['this', 'baseline'];
  for (const which of order) runs.push(build(which));
}
const of = (which: Which) => runs.filter((r) => r.which === which);
const ratio = (pick: (r: Run) => number) => median(of('this').map(pick)) / median(of('baseline').map(pick));
const same = (pick: (r: Run) => string) => new Set(runs.map(pick)).size === 1;
process.stdout.write(
  `this / baseline (medians): wall ${ratio((r) => r.wall).toFixed(3)}, cpu ${ratio((r) => r.cpu).toFixed(3)}, peak RSS ${ratio((r) => r.peakMb).toFixed(3)}\n` +
    `column files identical: ${same((r) => r.columns) ? 'yes' : 'NO'} (${of('this')[0]!.columns.slice(0, 16)}…); fit figures identical: ${same((r) => r.figures) ? 'yes' : 'NO'}\n`,
);
rmSync(work, { recursive: true, force: true });
if (!same((r) => r.columns) || !same((r) => r.figures)) process.exitCode = 1;
