#!/usr/bin/env node
// Runs the compiled CLI (dist/, made by `npm run build`, which `npm ci` runs through "prepare"):
// plain JavaScript, no TypeScript loader. A checkout without dist/ is told how to make it.
import { existsSync } from 'node:fs';

const major = Number(process.versions.node.split('.')[0]);
if (major < 24) {
  process.stderr.write(
    `spq: needs Node.js 24 (the LTS) or later, this is ${process.version}. \`npm ci\` installs it into the project: run \`npx spq …\` or \`npm start\` (docs/deploy.md, "Node.js").\n`,
  );
  process.exit(1);
}
const compiled = new URL('../dist/src/cli/main.js', import.meta.url);
if (!existsSync(compiled)) {
  process.stderr.write('spq: dist/ is missing; run `npm run build` (npm ci does it) and retry\n');
  process.exit(1);
}
const { main } = await import(compiled.href);
process.exitCode = await main(process.argv.slice(2));
