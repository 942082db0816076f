/**
 * Small helpers shared by the benches: their command-line options, medians, the machine's load
 * (recorded with every run, because figures from a loaded 2-core machine are not comparable),
 * free ports, and a bench account with enough credits for million-row executes.
 */
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { createAccountWithKey } from '../src/app/accounts.ts';
import type { AccountStore } from '../src/ports/account-store.ts';
import { systemClock } from '../src/ports/clock.ts';
export { freePort } from '../test/support/free-port.ts';

/** An option's default: its type too (a number option reads as a number, a boolean one is a flag); null for a text option without one. */
type OptionDefault = string | number | boolean | null;
type OptionValues<T extends Record<string, OptionDefault>> = {
  readonly [K in keyof T]: T[K] extends number ? number : T[K] extends boolean ? boolean : T[K] extends null ? string | undefined : string;
};

/**
 * The bench's --options, typed by their defaults: `benchOptions({ n: 1000000, out: '/tmp/x.csv',
 * why: false, json: null })`. An unknown option or a number option that is not a number stops
 * the bench before it runs.
 */
export function benchOptions<const T extends Record<string, OptionDefault>>(defaults: T): OptionValues<T> {
  const options = Object.fromEntries(
    Object.entries(defaults).map(([name, value]) =>
      [name, typeof value === 'boolean' ? { type: 'boolean' as const } : { type: 'string' as const, ...(value === null ? {} : { default: String(value) }) }],
    ),
  );
  const { values } = parseArgs({ options });
  return Object.fromEntries(
    Object.entries(defaults).map(([name, value]) => {
      const given = values[name];
      if (typeof value !== 'number') return [name, typeof value === 'boolean' ? given === true : given];
      const number = Number(given);
      if (Number.isNaN(number)) throw new Error(`--${name} must be a number, got ${String(given)}`);
      return [name, number];
    }),
  ) as OptionValues<T>;
}

export const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

export const fmtMs = (x: number): string => (x >= 100 ? x.toFixed(0) : x.toFixed(1));
export const fmtInt = (x: number): string => Math.round(x).toLocaleString('en-US');

/** "2026-11-23 09:40, 2 cores, load average 0.37 0.40 0.18" (uptime's 1-, 5- and 15-minute figures). */
export function machineLine(): string {
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  const stamp = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())} ${pad(now.getHours())}:${pad(now.getMinutes())}`;
  return `${stamp}, ${cpus().length} cores, load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}`;
}

export const load1 = (): number => loadavg()[0]!;


/** A paid account whose bundle pays for every execute of a bench run (a 1 M-row execute costs 2,000 credits). */
export async function benchAccount(store: AccountStore, serverSecret: string, credits = 10_000_000): Promise<{ accountId: string; apiKey: string }> {
  const created = await createAccountWithKey(
    { store, serverSecret, clock: systemClock },
    { email: `bench-${Date.now()}-${Math.floor(Math.random() * 1e9)}@example.org`, tier: 'paid', bundle: { credits, days: 30 } },
  );
  if (!created.ok) throw new Error(created.error.detail);
  return { accountId: created.value.account.accountId, apiKey: created.value.apiKey };
}

/** Resident set size of a process in bytes (Linux: VmRSS of /proc/<pid>/status). */
export function rssOf(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m) throw new Error(`no VmRSS for process ${pid}`);
  return Number(m[1]) * 1024;
}

/** Samples a process's RSS every `everyMs` until stopped; returns the peak seen. */
export function rssSampler(pid: number, everyMs = 50): { peak(): number; stop(): number } {
  let peak = rssOf(pid);
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, rssOf(pid));
    } catch {
      // The process ended; the peak so far stands.
    }
  }, everyMs);
  return {
    peak: () => peak,
    stop: () => {
      clearInterval(timer);
      try {
        peak = Math.max(peak, rssOf(pid));
      } catch {
        // ended
      }
      return peak;
    },
  };
}

export const MB = 1024 * 1024;
