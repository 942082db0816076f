/**
 * The weekly free allowance resets every Monday 00:00 in Australia/Sydney (docs/spec/decisions.md). The
 * wall-clock maths goes through Intl.DateTimeFormat, so daylight saving is handled by the
 * time-zone database: a week is 7 × 24 h, 7 × 24 h − 1 h (October) or 7 × 24 h + 1 h (April).
 */
export const FREE_WEEKLY_CREDITS = 5;
export const RESET_TIME_ZONE = 'Australia/Sydney';

interface WallClock {
  readonly year: number;
  readonly month: number; // 1–12
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The wall-clock reading in `timeZone` at the instant `at` (whole seconds). */
export function wallClockAt(at: Date, timeZone: string = RESET_TIME_ZONE): WallClock {
  const parts: Record<string, number> = {};
  for (const part of formatterFor(timeZone).formatToParts(at)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return {
    year: parts.year!,
    month: parts.month!,
    day: parts.day!,
    hour: parts.hour!,
    minute: parts.minute!,
    second: parts.second!,
  };
}

/** UTC offset of `timeZone` at instant `at`, in milliseconds (Sydney: +10 h or +11 h). */
export function offsetMs(at: Date, timeZone: string = RESET_TIME_ZONE): number {
  const w = wallClockAt(at, timeZone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - Math.floor(at.getTime() / 1000) * 1000;
}

/**
 * The instant at which the local wall clock shows year-month-day 00:00. Midnight exists and is
 * unique in Sydney (its transitions are at 02:00/03:00), so two offset refinements settle it.
 */
function localMidnight(year: number, month: number, day: number, timeZone: string): Date {
  const naive = Date.UTC(year, month - 1, day);
  let guess = naive - offsetMs(new Date(naive), timeZone);
  guess = naive - offsetMs(new Date(guess), timeZone);
  return new Date(guess);
}

/** Start of the free-allowance week containing `now`: the latest Monday 00:00 Sydney ≤ now. */
export function currentFreePeriodStart(now: Date): Date {
  const w = wallClockAt(now);
  // Day of week of the local calendar date (0 = Sunday), computed on a UTC calendar.
  const weekday = new Date(Date.UTC(w.year, w.month - 1, w.day)).getUTCDay();
  const daysSinceMonday = (weekday + 6) % 7;
  const monday = new Date(Date.UTC(w.year, w.month - 1, w.day - daysSinceMonday));
  return localMidnight(monday.getUTCFullYear(), monday.getUTCMonth() + 1, monday.getUTCDate(), RESET_TIME_ZONE);
}

/** The next reset after `now`: the Monday 00:00 Sydney following the current period's start. */
export function nextFreeReset(now: Date): Date {
  const start = wallClockAt(currentFreePeriodStart(now));
  const next = new Date(Date.UTC(start.year, start.month - 1, start.day + 7));
  return localMidnight(next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate(), RESET_TIME_ZONE);
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** ISO 8601 with the Sydney offset, e.g. "2026-11-23T00:00:00+11:00" (free_credits_reset). */
export function toSydneyIsoString(at: Date): string {
  const w = wallClockAt(at);
  const offsetMinutes = Math.round(offsetMs(at) / 60_000);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  return (
    `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}` +
    `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`
  );
}
