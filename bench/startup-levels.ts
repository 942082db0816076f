/**
 * Start-up of a release that holds every level at national size (issue 28: "a release with all
 * four starts serving in ≤ 3 s"): a pool release whose catalog has every real area of the ABS
 * 2021 geography at all four levels (15,334 suburbs, 2,454 SA2s, 2,641 postal areas, 547 LGAs:
 * their real codes, names and states, src/census-input/reference), each with a small synthetic
 * pool, then real `spq serve` processes (dist/) timed from spawn to /readyz 200, with the default
 * verification and with SPQ_POOL_VERIFY=full. Start-up is O(files + areas), not O(bytes): it parses
 * the catalog, builds the geography index and checks ~64 KiB per column file, so the pools' size
 * (--persons per area) matters only to `full`. The records are not realistic: only the shape is.
 *
 * `--levels poa` (or any comma list) keeps only those levels' areas: the baseline of the same run.
 * `--release DIR` times a release built elsewhere instead (e.g. the `npm run start:census` one,
 * `data/census/pools/census-2021.1`), real pools and all.
 *
 * Usage: node bin/run-ts.js bench/startup-levels.ts [--data /tmp/spq-startup-levels] [--levels sal,sa2,poa,lga] [--persons 50] [--starts 3] [--release DIR]
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { realLgas, realPostcodes, realSa2s, realSals } from '../src/census-input/asgs-reference.ts';
import type { SuburbEntry } from '../src/adapters/pools/catalog.ts';
import { createPoolReleaseWriter } from '../src/adapters/pools/writer.ts';
import { lgaIdentifiers, suburbIdentifiers } from '../src/census-input/abs-names.ts';
import { DATASET_TYPES, type DatasetType, type StateAbbr } from '../src/core/dataset.ts';
import { variablesOf } from '../src/synthesis/census/variables.ts';
import { benchOptions, fmtInt, machineLine, median } from './lib.ts';
import { syntheticPopulation } from './pool-release-synthetic.ts';
import { startServer, stopServer } from './server.ts';

const values = benchOptions({ data: '/tmp/spq-startup-levels', persons: 50, starts: 3, levels: 'sal,sa2,poa,lga', release: null });
const say = (line: string) => process.stderr.write(`${line}\n`);
const root = join(import.meta.dirname, '..');
const dataDir = resolve(values.data);
const levels = values.levels.split(',');
const releaseDir = values.release ? resolve(values.release) : join(dataDir, 'pools', levels.join('-'));

/** Every real area of the four levels as the builder catalogues it; suburbs get their state's postal areas and LGAs in turn. */
function allAreas(): SuburbEntry[] {
  const base = { gccsa: '', smallSuburb: false } as const;
  const poas = realPostcodes();
  const lgas = realLgas();
  const lgaIds = lgaIdentifiers(lgas.map((l) => ({ key: l.code, name: l.name, state: l.state })));
  const inState = <T extends { state: StateAbbr }>(list: readonly T[], state: StateAbbr, i: number): T | undefined => {
    const own = list.filter((a) => a.state === state);
    return own[i % Math.max(1, own.length)];
  };
  const sals = realSals();
  const salIds = suburbIdentifiers(sals.map((s) => ({ key: s.code, name: s.name, state: s.state, area: s.qualifierArea ?? s.code })));
  return [
    ...sals.map((s, i): SuburbEntry => {
      const poa = inState(poas, s.state, i);
      const lga = inState(lgas, s.state, i);
      const postcode = poa?.name ?? '';
      return {
        ...base, level: 'sal', salCode: s.code, suburbId: salIds.get(s.code)!, name: s.name, state: s.state, postcode, postcodes: postcode ? [postcode] : [],
        lga: lga?.name ?? '', lgaCode: lga?.code ?? '', lgas: lga ? [{ code: lga.code, name: lga.name }] : [],
      };
    }),
    ...realSa2s().map((a): SuburbEntry => ({ ...base, level: 'sa2', salCode: a.code, suburbId: a.absName, name: a.name, state: a.state, postcode: '', lga: '', lgaCode: '' })),
    ...poas.map((a): SuburbEntry => ({ ...base, level: 'poa', salCode: a.code, suburbId: a.name, name: a.name, state: a.state, postcode: a.name, postcodes: [a.name], lga: '', lgaCode: '' })),
    ...lgas.map((a): SuburbEntry => ({ ...base, level: 'lga', salCode: a.code, suburbId: lgaIds.get(a.code)!, name: a.name, state: a.state, postcode: '', lga: a.name, lgaCode: a.code, lgas: [{ code: a.code, name: a.name }] })),
  ];
}

async function buildRelease(persons: number): Promise<number> {
  if (existsSync(join(releaseDir, 'manifest.json'))) {
    say(`reusing ${releaseDir}`);
    return (JSON.parse(await readFile(join(releaseDir, 'catalog.json'), 'utf8')) as { suburbs: unknown[] }).suburbs.length;
  }
  if (values.release) throw new Error(`no release in ${releaseDir} (no manifest.json)`);
  const areas = allAreas().filter((a) => levels.includes(a.level ?? 'sal'));
  const variables = Object.fromEntries(DATASET_TYPES.map((d) => [d, variablesOf(d)])) as Record<DatasetType, ReturnType<typeof variablesOf>>;
  const writer = await createPoolReleaseWriter({ dir: releaseDir, version: 'all-levels', variables, fittedTo: 'census' });
  const pops = [0, 1, 2, 3].map((k) => syntheticPopulation(persons, 7919 * (k + 1)));
  for (const [i, suburb] of areas.entries()) await writer.append({ suburb, population: pops[i % pops.length]!, coarsened: [] });
  await writer.finish({ synthetic: true });
  say(`wrote ${releaseDir}: ${fmtInt(areas.length)} areas, ${fmtInt(areas.length * persons)} persons`);
  return areas.length;
}

async function main(): Promise<void> {
  say(`machine: ${machineLine()}`);
  if (spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--if-stale'], { stdio: 'inherit' }).status !== 0) throw new Error('the build of dist/ failed');
  const areas = await buildRelease(values.persons);
  const serverDir = join(dataDir, 'server');
  const ready: number[] = [];
  for (let i = 0; i < values.starts; i++) {
    await rm(serverDir, { recursive: true, force: true });
    await mkdir(serverDir, { recursive: true });
    const server = await startServer(releaseDir, serverDir);
    const answered = await fetch(`${server.url}/openapi.json`).then((r) => r.status);
    await stopServer(server);
    if (answered !== 200) throw new Error('the server did not answer');
    ready.push(server.readyMs);
  }
  const full = await startServer(releaseDir, serverDir, { SPQ_POOL_VERIFY: 'full' });
  await stopServer(full);
  const s = (ms: number) => (ms / 1000).toFixed(2);
  process.stdout.write(
    [
      `release of ${fmtInt(areas)} areas (${values.release ? releaseDir : levels.join(', ')})`,
      '| figure | measured | goal |',
      '|---|---|---|',
      `| start to ready (/readyz 200), ${ready.length} starts | ${ready.map(s).join(' / ')} s (median ${s(median(ready))}) | ≤ 3 s |`,
      `| the same, SPQ_POOL_VERIFY=full | ${s(full.readyMs)} s | — |`,
      `end: ${machineLine()}`,
    ].join('\n') + '\n',
  );
}

await main();
