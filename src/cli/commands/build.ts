import type { Command } from 'commander';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../config.ts';
import { parseLevels, populationOption } from '../options.ts';
import { poolsRoot } from '../../adapters/pools/release-dirs.ts';
import { DEMO_SEED, DEMO_VERSION } from '../../release-builder/releases.ts'; // constants only: the builder loads when the command runs
import { createProgress } from '../progress.ts';
import type { BuildSummary } from '../../release-builder/build-release.ts';

interface BuildFlags {
  inputs?: string;
  out?: string;
  version?: string;
  seed: string;
  json?: boolean;
  scale: string;
  allowUnknownHeaders?: boolean;
  levels: string;
  implicates: string;
  population?: string;
  populationYear?: string;
  sqlCopy?: boolean;
}

export function registerBuildCommand(program: Command): void {
  program
    .command('build')
    .description('build a pool release: from ABS inputs (--inputs DIR), or from generated demo inputs by default')
    .option('--inputs <dir>', 'directory of ABS ASGS correspondences and GCP DataPack CSVs')
    .option('--out <dir>', 'root directory of pool releases (default: <SPQ_DATA_DIR>/pools)')
    .option('--version <v>', 'release version (default: demo-2021.1 for demo inputs, 2021.1 otherwise)')
    .option('--seed <n>', 'synthesis seed (of implicate 1; implicate k gets its own, derived from it)', String(DEMO_SEED))
    .option('--implicates <m>', 'independent syntheses of every pool the release holds, each with its own seed (multiple imputation; implicate k ≥ 2 in <release>/implicates/<k>)', '1')
    .option('--scale <scale>', 'demo inputs only: demo or national', 'demo')
    .option('--levels <list>', 'comma list of the levels to fit, each to its own DataPack tables, all in one release: sal (suburbs, with the ASGS files), sa2 (Statistical Areas Level 2), poa (postal areas), lga', 'sal')
    .option('--population <file>', 'size every area to the ABS estimated resident population in this file (csv by SA1 or SA2, the ABS data cube xlsx, or SA2 × age × sex; docs/inputs.md): SA2s to their own estimates, other levels by their SA2s\' change')
    .option('--population-year <yyyy>', 'with --population: the year (30 June) to size to, needed when the file holds several')
    .option('--allow-unknown-headers', 'accept DataPack headers the ABS 2021 metadata does not list (a DataPack release with another layout; a real 2021 DataPack does not need it)')
    .option('--sql-copy', 'also write pools.duckdb, a copy of the records for SQL inspection (serving never reads it; it slows a large build)')
    .option('--json', 'print one JSON summary on stdout (progress stays on stderr)')
    .action(async (flags: BuildFlags) => {
      const [{ generateDemoInputs }, { BuildInputError, buildRelease }] = await Promise.all([import('../../demo/generate.ts'), import('../../release-builder/index.ts')]);
      const seed = Number(flags.seed);
      if (!Number.isSafeInteger(seed) || seed < 0) throw new Error(`--seed must be a non-negative integer, got "${flags.seed}"`);
      if (flags.scale !== 'demo' && flags.scale !== 'national') throw new Error(`--scale must be demo or national, got "${flags.scale}"`);
      const levels = parseLevels(flags.levels);
      const implicates = Number(flags.implicates);
      if (!Number.isSafeInteger(implicates) || implicates < 1 || implicates > 1000) throw new Error(`--implicates must be a whole number from 1 to 1000, got "${flags.implicates}"`);
      if (!flags.inputs && levels.join() !== 'sal') throw new Error('--levels other than sal need --inputs (the demo inputs are suburbs)');
      const population = populationOption(flags);
      const config = loadConfig();
      const progress = createProgress(process.stderr);
      let inputsDir = flags.inputs;
      let scratch: string | undefined;
      if (!inputsDir) {
        scratch = await mkdtemp(join(tmpdir(), 'spq-demo-inputs-'));
        inputsDir = scratch;
        progress.phase(`generating ${flags.scale} demo inputs`);
        await generateDemoInputs({ outDir: inputsDir, scale: flags.scale, seed, onProgress: (done, total) => progress.update(done, total) });
        progress.done();
      }
      try {
        let phase = '';
        const summary = await buildRelease({
          inputsDir,
          poolsDir: flags.out ?? poolsRoot(config.dataDir),
          version: flags.version ?? (flags.inputs ? '2021.1' : flags.scale === 'national' ? 'demo-national-2021.1' : DEMO_VERSION),
          seed,
          smallSuburbThreshold: config.smallSuburbThreshold,
          allowUnknownHeaders: flags.allowUnknownHeaders ?? false,
          levels,
          implicates,
          sqlCopy: flags.sqlCopy ?? false,
          ...(population ? { population } : {}),
          onProgress: (next, done, total) => {
            if (next !== phase) {
              if (phase) progress.done();
              phase = next;
              progress.phase({ load: 'loading inputs', synthesize: 'synthesizing areas', write: 'writing the pool release' }[next]);
            }
            progress.update(done, total);
          },
        });
        progress.done();
        const { writeReportHtml } = await import('../report-html.ts');
        const reportHtml = await writeReportHtml(summary.dir);
        const { report: _report, summaryText, ...figures } = summary;
        if (flags.json) process.stdout.write(`${JSON.stringify(figures)}\n`);
        else {
          const extra = summary.implicates.slice(1).map((i) => `implicate ${i.implicate} (seed ${i.seed}, SRMSE median ${i.srmse_median?.toFixed(4) ?? 'n/a'}): ${i.dir}\n`).join('');
          process.stdout.write(`${summaryText}${levelLines(summary)}release written to ${summary.dir} (implicate 1, seed ${summary.implicates[0]!.seed}); its quality page: ${reportHtml}\n${extra}`);
        }
      } catch (error) {
        if (error instanceof BuildInputError) {
          process.stderr.write(`spq build: input ${error.problems.length === 1 ? 'error' : 'errors'}: ${error.message}\n`);
          process.exitCode = 2;
          return;
        }
        throw error;
      } finally {
        if (scratch) await rm(scratch, { recursive: true, force: true });
      }
    });
}

/** With several levels in the release, one line of figures per level (the --json summary's by_level). */
export function levelLines(summary: Pick<BuildSummary, 'levels' | 'by_level'>): string {
  if (summary.levels.length < 2) return '';
  const f = (v: number | null) => v?.toFixed(4) ?? 'n/a';
  return summary.levels
    .map((level) => {
      const l = summary.by_level[level];
      if (!l) return '';
      const own = l.own_tables ? `, own tables ${f(l.own_tables.srmse_median)}${l.own_cells ? `, own cells ${f(l.own_cells.srmse_median)}` : ''}${l.derived_targets ? `, derived targets ${f(l.derived_targets.srmse_median)}` : ''}` : '';
      return `${level}: ${l.areas} areas, ${l.persons} persons, SRMSE median ${f(l.srmse_median)}${own} (areas of 5,000+ persons ${f(l.srmse_by_band['5000+'].median)}), ${l.structural_violations} structural violations, ${l.areas_failed.length} areas failed\n`;
    })
    .join('');
}
