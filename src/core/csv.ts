/** One CSV field (RFC 4180), quoted only when it must be: the service's one way to write one. */
export function csvField(value: string | number): string {
  const s = String(value);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** One CSV record with its line end. */
export const csvLine = (values: readonly (string | number)[]): string => values.map(csvField).join(',') + '\n';
