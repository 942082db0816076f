/**
 * Every instance must serve the same release: opening checks the version and the manifest
 * checksum it was told to expect, and every file against the manifest, and refuses a mismatch
 * with one line that says what was expected, what was found and where.
 */
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPoolRelease } from '../../../src/adapters/pools/release.ts';
import { composeServices } from '../../../src/main/compose.ts';
import { ConfigError, loadConfig } from '../../../src/config.ts';
import { FIXTURE_VERSION, TINY_VARIABLES, buildFixtureRelease } from './fixture.ts';

let tmp: string;
let releaseDir: string;
let checksum: string;

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'spq-release-check-'));
  releaseDir = await buildFixtureRelease(tmp, { variables: TINY_VARIABLES });
  checksum = (JSON.parse(await readFile(join(releaseDir, 'manifest.json'), 'utf8')) as { checksum: string }).checksum;
});
afterAll(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

const OTHER_CHECKSUM = 'f'.repeat(64);

describe('openPoolRelease with an expected version and checksum', () => {
  it('opens the release it was told to expect (checksum in either case)', async () => {
    const release = await openPoolRelease(releaseDir, { expectedVersion: FIXTURE_VERSION, expectedChecksum: checksum.toUpperCase() });
    try {
      expect(release.version).toBe(FIXTURE_VERSION);
      expect(release.checksum).toBe(checksum);
    } finally {
      await release.close();
    }
  });

  it('refuses another version, naming the directory, what it found and what it expected', async () => {
    const error = await openPoolRelease(releaseDir, { expectedVersion: '2021.2' }).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message).toBe(`pool release ${releaseDir}: manifest version "${FIXTURE_VERSION}" is not the expected "2021.2"`);
  });

  it('refuses another checksum, naming the directory, what it found and what it expected', async () => {
    const error = await openPoolRelease(releaseDir, { expectedVersion: FIXTURE_VERSION, expectedChecksum: OTHER_CHECKSUM }).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message).toBe(`pool release ${releaseDir}: manifest checksum ${checksum} (version "${FIXTURE_VERSION}") is not the expected ${OTHER_CHECKSUM}`);
    expect(error?.message).not.toContain('\n');
  });

  it('refuses a release with an altered column file, even when version and checksum are the expected ones', async () => {
    const copy = join(tmp, 'altered');
    await cp(releaseDir, copy, { recursive: true });
    const [file] = (await readdir(join(copy, 'columns', 'persons'))).sort();
    const path = join(copy, 'columns', 'persons', file!);
    const bytes = await readFile(path);
    const middle = bytes.length >> 1;
    bytes[middle] = bytes[middle]! ^ 0x01; // one bit, same length
    await writeFile(path, bytes);
    await expect(openPoolRelease(copy, { expectedVersion: FIXTURE_VERSION, expectedChecksum: checksum })).rejects.toThrow(
      `pool release ${copy}: columns/persons/${file} does not match its manifest checksum (release altered or incomplete)`,
    );
  });

  it('refuses a manifest edited to list the altered file: its checksum is no longer the expected one', async () => {
    const copy = join(tmp, 'relisted');
    await cp(releaseDir, copy, { recursive: true });
    const manifestPath = join(copy, 'manifest.json');
    const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as { files: Record<string, { sha256: string }>; checksum: string };
    const name = Object.keys(manifest.files).find((n) => n.startsWith('columns/persons/'))!;
    manifest.files[name]!.sha256 = '0'.repeat(64);
    await writeFile(manifestPath, JSON.stringify(manifest));
    // Without recomputing the manifest's own checksum the manifest is inconsistent; with it, the expected checksum differs.
    await expect(openPoolRelease(copy, { expectedChecksum: checksum })).rejects.toThrow('manifest checksum does not match its file list');
  });
});

describe('SPQ_POOL_VERSION and SPQ_POOL_CHECKSUM', () => {
  it('are parsed and checked for shape', () => {
    const config = loadConfig({ SPQ_DATA_DIR: tmp, SPQ_POOL_VERSION: '2021.1', SPQ_POOL_CHECKSUM: checksum.toUpperCase() });
    expect(config.poolVersion).toBe('2021.1');
    expect(config.poolChecksum).toBe(checksum);
    expect(() => loadConfig({ SPQ_POOL_VERSION: '../elsewhere' })).toThrow(ConfigError);
    expect(() => loadConfig({ SPQ_POOL_CHECKSUM: 'abc' })).toThrow(ConfigError);
  });

  it('SPQ_POOL_VERIFY is "sampled" unless set to "full"; anything else stops start-up', () => {
    expect(loadConfig({ SPQ_DATA_DIR: tmp }).poolVerify).toBe('sampled');
    expect(loadConfig({ SPQ_DATA_DIR: tmp, SPQ_POOL_VERIFY: 'full' }).poolVerify).toBe('full');
    expect(() => loadConfig({ SPQ_POOL_VERIFY: 'none' })).toThrow(ConfigError);
  });

  it('stop start-up on a mismatch with one line, before any other adapter is opened', async () => {
    const dataDir = join(tmp, 'data');
    const base = { SPQ_DATA_DIR: dataDir, SPQ_SERVER_SECRET: 'release-check-secret-0123456789abcdef', SPQ_POOL_DIR: releaseDir };
    const lines: string[] = [];
    const failure = (env: Record<string, string>) =>
      composeServices(loadConfig({ ...base, ...env }), (line) => lines.push(line)).then(
        async (services) => {
          await services.close();
          return undefined;
        },
        (e: Error) => e.message,
      );
    expect(await failure({ SPQ_POOL_VERSION: '2022.1' })).toBe(
      `refusing to serve: pool release ${releaseDir}: manifest version "${FIXTURE_VERSION}" is not the expected "2022.1"`,
    );
    expect(await failure({ SPQ_POOL_CHECKSUM: OTHER_CHECKSUM })).toBe(
      `refusing to serve: pool release ${releaseDir}: manifest checksum ${checksum} (version "${FIXTURE_VERSION}") is not the expected ${OTHER_CHECKSUM}`,
    );
    // No database was created for a refused release.
    expect(existsSync(join(dataDir, 'spq.sqlite'))).toBe(false);
  });

  it('with SPQ_POOL_DIR unset, SPQ_POOL_VERSION picks <dataDir>/pools/<version>', async () => {
    const dataDir = join(tmp, 'by-version');
    await buildFixtureRelease(join(dataDir, 'pools'), { variables: TINY_VARIABLES, version: 'test-2021.2' });
    await buildFixtureRelease(join(dataDir, 'pools'), { variables: TINY_VARIABLES, version: 'test-2021.3' });
    const services = await composeServices(
      loadConfig({ SPQ_DATA_DIR: dataDir, SPQ_SERVER_SECRET: 'release-check-secret-0123456789abcdef', SPQ_POOL_VERSION: 'test-2021.2' }),
      () => undefined,
    );
    try {
      expect(services.pools.version).toBe('test-2021.2');
    } finally {
      await services.close();
    }
  });
});
