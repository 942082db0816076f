import { FREE_WEEKLY_CREDITS, nextFreeReset } from '../../core/ledger/weekly-reset.ts';
import type { ApiKeyRecord, CreditSummary, QueryUsage } from '../../ports/account-store.ts';
import type { HolderDeps } from './holder.ts';

/**
 * The account area's overview: the balance and what renews when, and usage (queries, records,
 * credits) by day in the holder's time zone and by key, from the account's completed queries.
 */
export const USAGE_DAYS = 30;
/** More queries than this in USAGE_DAYS days are summed from the newest this many (the page says so). */
export const USAGE_QUERY_LIMIT = 5000;

export interface UsageFigures {
  readonly queries: number;
  /** Records asked for: records per place × places. */
  readonly records: number;
  readonly credits: number;
  /** Of `queries`, how many were sandbox (test data) queries. */
  readonly testQueries: number;
}

export interface DayUsage extends UsageFigures {
  /** YYYY-MM-DD in the holder's time zone. */
  readonly day: string;
}

export interface KeyUsage extends UsageFigures {
  /** null: the account area's own builder (no key). */
  readonly keyId: string | null;
  readonly key: ApiKeyRecord | undefined;
}

/** What renews when: the weekly allowance of a free account, the paid tier's end for a paid one. */
export type Renewal =
  | { readonly tier: 'free'; readonly allowance: number; readonly resetsAt: Date }
  | { readonly tier: 'paid'; readonly paidUntil: Date | null; readonly freeLeftUntil: Date };

export interface AccountOverview {
  readonly summary: CreditSummary;
  readonly renewal: Renewal;
  readonly days: readonly DayUsage[];
  readonly byKey: readonly KeyUsage[];
  readonly totals: UsageFigures;
  /** True when the period held more than USAGE_QUERY_LIMIT queries and the figures are of the newest. */
  readonly truncated: boolean;
}

const ZERO: UsageFigures = { queries: 0, records: 0, credits: 0, testQueries: 0 };

const add = (a: UsageFigures, q: QueryUsage): UsageFigures => ({
  queries: a.queries + 1,
  records: a.records + q.nObservations * q.places,
  credits: a.credits + q.creditCost,
  testQueries: a.testQueries + (q.testData ? 1 : 0),
});

const DAY_FORMATS = new Map<string, Intl.DateTimeFormat>();
/** The calendar day of `date` in `timeZone`, as YYYY-MM-DD. */
export function dayIn(date: Date, timeZone: string): string {
  let format = DAY_FORMATS.get(timeZone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    DAY_FORMATS.set(timeZone, format);
  }
  return format.format(date);
}

/** The `count` calendar days ending with `today` (YYYY-MM-DD), oldest first; calendar arithmetic, so DST never skips a day. */
export function daysEnding(today: string, count: number): string[] {
  const [y, m, d] = today.split('-').map(Number) as [number, number, number];
  return Array.from({ length: count }, (_, i) => new Date(Date.UTC(y, m - 1, d - (count - 1 - i))).toISOString().slice(0, 10));
}

/** Adds up queries by day (every day of the window, zero ones too) and by key (busiest first). */
export function summariseUsage(queries: readonly QueryUsage[], keys: readonly ApiKeyRecord[], days: readonly string[], timeZone: string) {
  const byDay = new Map<string, UsageFigures>(days.map((d) => [d, ZERO]));
  const byKey = new Map<string | null, UsageFigures>();
  let totals = ZERO;
  for (const q of queries) {
    const day = dayIn(q.executedAt, timeZone);
    const current = byDay.get(day);
    if (current === undefined) continue; // before the window's first day in this zone
    byDay.set(day, add(current, q));
    const keyId = q.keyId;
    byKey.set(keyId, add(byKey.get(keyId) ?? ZERO, q));
    totals = add(totals, q);
  }
  return {
    days: days.map((day) => ({ day, ...byDay.get(day)! })),
    byKey: [...byKey]
      .map(([keyId, figures]) => ({ keyId, key: keys.find((k) => k.keyId === keyId), ...figures }))
      .sort((a, b) => b.credits - a.credits || b.queries - a.queries || String(a.keyId).localeCompare(String(b.keyId))),
    totals,
  };
}

export async function accountOverview(deps: Pick<HolderDeps, 'store' | 'clock'>, accountId: string, timeZone: string): Promise<AccountOverview> {
  const now = deps.clock.now();
  const days = daysEnding(dayIn(now, timeZone), USAGE_DAYS);
  // A day more than the window, so the first day is whole in any time zone; summariseUsage drops the rest.
  const since = new Date(now.getTime() - (USAGE_DAYS + 1) * 86_400_000);
  const [summary, bundles, queries, keys] = await Promise.all([
    deps.store.credits(accountId, now),
    deps.store.bundles(accountId),
    deps.store.usageSince({ accountId, since, limit: USAGE_QUERY_LIMIT }),
    deps.store.listKeys(accountId),
  ]);
  const paidUntil = bundles.filter((b) => b.startsAt <= now && now < b.expiresAt).reduce<Date | null>((latest, b) => (latest === null || b.expiresAt > latest ? b.expiresAt : latest), null);
  const renewal: Renewal =
    summary.tier === 'free'
      ? { tier: 'free', allowance: FREE_WEEKLY_CREDITS, resetsAt: summary.freeCreditsReset ?? nextFreeReset(now) }
      : // Free credits left from a free week stay usable until the next Monday; a paid week brings none.
        { tier: 'paid', paidUntil, freeLeftUntil: nextFreeReset(now) };
  return { summary, renewal, ...summariseUsage(queries, keys, days, timeZone), truncated: queries.length >= USAGE_QUERY_LIMIT };
}
