/**
 * Where a build's time goes, by thread and by phase (issue 42): runs `spq build --json` in a child
 * process and, every `--every` seconds, reads each of its threads' CPU time from /proc (Linux),
 * grouped by the thread's name: the main thread, the synthesis workers ("WorkerThread"), V8's
 * helper threads (garbage collection, compilation: "V8Worker"), libuv's pool. At the end it
 * prints the build's own figures (`phases` of its --json: wall and main-thread CPU per phase, each
 * worker's CPU and busy share, the time the read-ahead was full), the peak RSS and the fit.
 *
 * Usage: node bin/run-ts.js bench/build-threads.ts --inputs DIR [--levels sal,sa2,poa,lga]
 *        [--every 60] [--out DIR] [--json FILE] [--sql-copy]
 * Run it alone on a quiet machine: its figures are the machine's as much as the build's.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { benchOptions, machineLine } from './lib.ts';

const options = benchOptions({ inputs: null, levels: 'sal,sa2,poa,lga', every: 60, out: null, json: null, 'sql-copy': false });
if (!options.inputs) throw new Error('--inputs DIR (an ABS DataPack with the 2016 correspondences) is required');
const out = options.out ?? mkdtempSync(join(tmpdir(), 'spq-build-threads-'));
const root = resolve(import.meta.dirname, '..');
const ticks = 100; // USER_HZ: /proc's CPU times are in 1/100 s on Linux

/** CPU seconds (user + system) per thread name of a process, from /proc/<pid>/task/<tid>/stat. */
function threadCpu(pid: number): Map<string, number> {
  const byName = new Map<string, number>();
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return byName;
  }
  for (const tid of tasks) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = tid === String(pid) ? 'main' : stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const seconds = (Number(fields[11]) + Number(fields[12])) / ticks;
      byName.set(name, (byName.get(name) ?? 0) + seconds);
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return byName;
}

const started = performance.now();
console.log(`${machineLine()}\nbuilding ${options.levels} from ${options.inputs} into ${out}`);
const args = [join(root, 'bin', 'spq.js'), 'build', '--inputs', resolve(options.inputs), '--out', out, '--levels', options.levels, '--json', ...(options['sql-copy'] ? ['--sql-copy'] : [])];
const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
let stdout = '';
child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
let last = new Map<string, number>();
const sample = () => {
  const now = threadCpu(child.pid!);
  if (now.size === 0) return;
  last = now;
  const line = [...now].sort((a, b) => b[1] - a[1]).map(([name, s]) => `${name} ${s.toFixed(0)}`).join(', ');
  console.log(`[${((performance.now() - started) / 1000).toFixed(0)} s] CPU s by thread: ${line}`);
};
const timer = setInterval(sample, options.every * 1000);
const code = await new Promise<number>((done) => child.on('exit', (c) => done(c ?? 1)));
clearInterval(timer);
if (code !== 0) throw new Error(`spq build exited with ${code}`);

const summary = JSON.parse(stdout) as {
  seconds: number;
  peak_rss_mb: number;
  persons: number;
  srmse_median: number | null;
  phases: { load: Phase; synthesize: Phase & { workers: { cpu_seconds: number; busy_share: number; jobs: number }[]; window_full_seconds: number }; write: Phase };
  by_level: Record<string, { srmse_median: number | null; floor_srmse_median?: number | null }>;
};
interface Phase {
  seconds: number;
  main_cpu_seconds: number;
}
const { phases } = summary;
console.log(`\nwall ${summary.seconds.toFixed(0)} s, peak RSS ${summary.peak_rss_mb} MB, ${summary.persons.toLocaleString()} persons (implicate 1)`);
for (const [name, phase] of Object.entries(phases)) console.log(`  ${name.padEnd(10)} ${phase.seconds.toFixed(1).padStart(7)} s wall, main thread ${phase.main_cpu_seconds.toFixed(1)} s CPU (${((100 * phase.main_cpu_seconds) / Math.max(phase.seconds, 1e-9)).toFixed(0)}%)`);
phases.synthesize.workers.forEach((w, k) => console.log(`  worker ${k + 1}: ${w.cpu_seconds.toFixed(1)} s CPU, busy ${(100 * w.busy_share).toFixed(1)}% of the synthesis, ${w.jobs} areas`));
console.log(`  read-ahead full while a worker was idle: ${phases.synthesize.window_full_seconds.toFixed(1)} s`);
console.log(`  last sample, CPU s by thread name: ${[...last].map(([n, s]) => `${n} ${s.toFixed(0)}`).join(', ')}`);
for (const [level, f] of Object.entries(summary.by_level)) console.log(`  ${level}: SRMSE median ${f.srmse_median?.toFixed(4) ?? 'n/a'}`);
if (options.json) writeFileSync(options.json, stdout);
