import { InvalidArgumentError, type Command } from 'commander';
import { createProgress } from '../progress.ts';

const parseSeed = (raw: string): number => {
  const n = Number(raw);
  if (!Number.isSafeInteger(n)) throw new InvalidArgumentError('the seed must be an integer');
  return n;
};

const parseCount = (raw: string): number => {
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < 1) throw new InvalidArgumentError('the number of suburbs must be a positive integer');
  return n;
};

/** `spq demo-inputs --out DIR [--scale national] [--seed N]`: writes a made-up ABS-format input set. */
export function registerDemoInputsCommand(program: Command): void {
  program
    .command('demo-inputs')
    .description('write deterministic, made-up census inputs in the real ABS file formats (ASGS + GCP DataPacks)')
    .requiredOption('--out <dir>', 'directory to write the input set into')
    .option('--scale <scale>', 'demo (~300 suburbs) or national (~15,000 suburbs, ~26 M persons)', 'demo')
    .option('--seed <n>', 'random seed (same seed, same bytes)', parseSeed, 2021)
    .option('--suburbs <n>', 'number of suburbs (overrides the scale default)', parseCount)
    .action(async (opts: { out: string; scale: string; seed: number; suburbs?: number }) => {
      if (opts.scale !== 'demo' && opts.scale !== 'national') {
        process.stderr.write(`spq demo-inputs: --scale must be demo or national, not "${opts.scale}"\n`);
        process.exitCode = 2;
        return;
      }
      const { generateDemoInputs } = await import('../../demo/generate.ts');
      const started = Date.now();
      const progress = createProgress(process.stderr);
      progress.phase(`demo-inputs (${opts.scale})`);
      const summary = await generateDemoInputs({
        outDir: opts.out,
        scale: opts.scale,
        seed: opts.seed,
        ...(opts.suburbs !== undefined ? { suburbs: opts.suburbs } : {}),
        onProgress: (done, total) => progress.update(done, total),
      });
      progress.done();
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      process.stdout.write(
        `Wrote ${summary.files} files to ${opts.out}: ${summary.suburbs} suburbs, ${summary.persons.toLocaleString('en-AU')} persons (made-up figures, seed ${opts.seed}) in ${seconds} s\n`,
      );
    });
}
