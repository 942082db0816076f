/**
 * A wait in words, as a person says it: "42 seconds", "15 minutes", "23 hours 59 minutes",
 * "2 days 3 hours". Under 90 seconds in seconds, under an hour in whole minutes (rounded up, so
 * the wait is never short), longer in hours and minutes (the seconds dropped), from two days in
 * days and hours.
 */
export function durationInWords(seconds: number): string {
  const s = Math.max(1, Math.ceil(seconds));
  if (s < 90) return count(s, 'second');
  if (s < 3600) return count(Math.ceil(s / 60), 'minute');
  if (s < 2 * 86_400) {
    const hours = Math.floor(s / 3600);
    const minutes = Math.floor((s % 3600) / 60);
    return minutes === 0 ? count(hours, 'hour') : `${count(hours, 'hour')} ${count(minutes, 'minute')}`;
  }
  const days = Math.floor(s / 86_400);
  const hours = Math.floor((s % 86_400) / 3600);
  return hours === 0 ? count(days, 'day') : `${count(days, 'day')} ${count(hours, 'hour')}`;
}

const count = (n: number, unit: string): string => `${n} ${unit}${n === 1 ? '' : 's'}`;
