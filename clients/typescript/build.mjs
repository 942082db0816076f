#!/usr/bin/env node
// Compiles the package (src → dist, ESM and .d.ts) with the repository's TypeScript, and ships the
// generated API types beside index.d.ts (a .d.ts source is not emitted by tsc).
import { execFileSync } from 'node:child_process';
import { copyFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const tsc = createRequire(join(here, '..', '..', 'package.json')).resolve('typescript/bin/tsc');
rmSync(join(here, 'dist'), { recursive: true, force: true });
execFileSync(process.execPath, [tsc, '-p', join(here, 'tsconfig.json')], { stdio: 'inherit' });
copyFileSync(join(here, 'src', 'api.d.ts'), join(here, 'dist', 'api.d.ts'));
