import { InvalidArgumentError } from 'commander';
import { AREA_LEVELS, type AreaLevel } from '../core/dataset.ts';

/** "poa" or "sal,poa" → the levels; anything else is an error naming what --levels takes. */
export function parseLevels(text: string): AreaLevel[] {
  const levels = text.split(',').map((l) => l.trim().toLowerCase()).filter((l) => l !== '');
  const unknown = levels.find((l) => !(AREA_LEVELS as readonly string[]).includes(l));
  if (unknown !== undefined || levels.length === 0) throw new Error(`--levels takes a comma list of ${AREA_LEVELS.join(', ')}; got "${text}"`);
  return levels as AreaLevel[];
}

export function portOption(value: string): number {
  const port = Number(value);
  if (!Number.isSafeInteger(port) || port < 0 || port > 65535) throw new InvalidArgumentError(`--port must be 0–65535, got "${value}"`);
  return port;
}

/** The server's location options (`spq serve`, `spq admin`): what they override in the config, and nothing else. */
export interface ServerLocation {
  readonly dataDir?: string;
  readonly host?: string;
  readonly port?: number;
}

export const configOverrides = (options: ServerLocation): ServerLocation => ({
  ...(options.dataDir !== undefined ? { dataDir: options.dataDir } : {}),
  ...(options.host !== undefined ? { host: options.host } : {}),
  ...(options.port !== undefined ? { port: options.port } : {}),
});

/** --population and --population-year, checked: a year without a file, or not a year, is an error. */
export function populationOption(flags: { readonly population?: string | undefined; readonly populationYear?: string | undefined; readonly inputs?: string | undefined }): { file: string; year?: number } | undefined {
  if (flags.populationYear !== undefined && !flags.population) throw new Error('--population-year needs --population FILE');
  if (!flags.population) return undefined;
  if (!flags.inputs) throw new Error('--population needs --inputs (the census tables the estimate is set against)');
  if (flags.populationYear === undefined) return { file: flags.population };
  const year = Number(flags.populationYear);
  if (!/^\d{4}$/.test(flags.populationYear) || year < 1991 || year > 2100) throw new Error(`--population-year must be a year such as 2023, got "${flags.populationYear}"`);
  return { file: flags.population, year };
}
