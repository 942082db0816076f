/**
 * "Forgot your password?" timing: does the answer's time tell whether the email has an account?
 * (issue 31, item 3). One test server (SQLite; SPQ_TEST_STACK=scaleout for PostgreSQL and Redis)
 * with a memory mailer; --tries requests for holders' emails and as many for unknown ones,
 * interleaved, each over its own connection as a probe would send them, after a warm-up. Prints
 * both medians, their difference, and as the noise floor the difference between the medians of
 * two halves of the unknown-email requests (the same work split in two), and how often one
 * request of each kind tells the holder (the holder's slower than the unknown's: 50 % is chance).
 * Usage: node bin/run-ts.js bench/reset-timing.ts [--tries 40]
 */
import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import { createMemoryMailer } from '../src/adapters/mail/memory.ts';
import { loadConfig } from '../src/config.ts';
import { startTestServer } from '../test/http/harness.ts';
import { fmtMs, machineLine, median } from './lib.ts';

const { values } = parseArgs({ options: { tries: { type: 'string', default: '40' } } });
const tries = Number(values.tries);
const base = loadConfig({});
const s = await startTestServer({ mailer: createMemoryMailer({ from: 'spq <no-reply@spq.test>' }), config: { accountArea: { ...base.accountArea, resetEmailsPerHour: 1_000_000 } } });
try {
  const holders: string[] = [];
  for (let i = 0; i < tries + 10; i++) {
    const email = `holder-${i}-${Math.random().toString(36).slice(2, 8)}@example.org`;
    await s.store.createAccount({ email, now: s.clock.now() });
    holders.push(email);
  }
  // The probe runs in its own process, as an outsider's would: the server's event loop (and the
  // work it does after answering) is not the client's.
  const probe = `
    const [base, known, unknown, tries] = JSON.parse(process.argv[1]);
    const timed = async (email) => {
      const started = performance.now();
      const res = await fetch(base + '/console/forgot', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: base }, body: new URLSearchParams({ email }).toString() });
      await res.text();
      if (res.status !== 200) throw new Error('forgot answered ' + res.status);
      return performance.now() - started;
    };
    const out = { known: [], other: [] };
    for (let i = 0; i < 10; i++) { await timed(known[tries + i]); await timed(unknown[tries + i]); }
    for (let i = 0; i < tries; i++) {
      // Alternate which goes first, so drift on the machine falls on both alike.
      if (i % 2 === 0) { out.known.push(await timed(known[i])); out.other.push(await timed(unknown[i])); }
      else { out.other.push(await timed(unknown[i])); out.known.push(await timed(known[i])); }
      await new Promise((r) => setTimeout(r, 20));
    }
    console.log(JSON.stringify(out));`;
  const unknownEmails = holders.map((_, i) => `nobody-${i}-${Math.random().toString(36).slice(2, 8)}@example.org`);
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', probe, JSON.stringify([s.baseUrl, holders, unknownEmails, tries])], { stdio: ['ignore', 'pipe', 'inherit'] });
    let text = '';
    child.stdout.on('data', (c: Buffer) => (text += c.toString('utf8')));
    child.once('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`probe exited ${code}`))));
  });
  const { known, other } = JSON.parse(output) as { known: number[]; other: number[] };
  const tells = known.filter((k, i) => k > other[i]!).length / tries;
  const halves = [other.filter((_, i) => i % 2 === 0), other.filter((_, i) => i % 2 === 1)];
  console.log(`reset timing (${s.stack}), ${machineLine()}`);
  console.log(`  ${tries} tries each: holder's email median ${fmtMs(median(known))} ms, unknown email median ${fmtMs(median(other))} ms, difference ${fmtMs(median(known) - median(other))} ms`);
  console.log(`  noise floor (two halves of the unknown-email requests): ${fmtMs(Math.abs(median(halves[0]!) - median(halves[1]!)))} ms`);
  console.log(`  one request of each tells the holder (the holder's slower) ${(tells * 100).toFixed(0)} % of the time (50 %: chance)`);
} finally {
  await s.close();
}
