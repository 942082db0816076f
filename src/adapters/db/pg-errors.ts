/** Classifies PostgreSQL failures for the retry policy of the PostgreSQL store. */

const codeOf = (error: unknown): string | undefined =>
  typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' ? error.code : undefined;

/** serialization_failure, deadlock_detected: the server rolled the transaction back. */
export function isTransientConflict(error: unknown): boolean {
  const code = codeOf(error);
  return code === '40001' || code === '40P01';
}

const CONNECTION_SQLSTATES = new Set(['08000', '08001', '08003', '08004', '08006', '57P01', '57P02', '57P03']);
const CONNECTION_ERRNOS = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH']);

/** The connection broke or the server is restarting: the outcome of an in-flight commit is unknown. */
export function isConnectionFailure(error: unknown): boolean {
  const code = codeOf(error);
  if (code !== undefined && (CONNECTION_SQLSTATES.has(code) || CONNECTION_ERRNOS.has(code))) return true;
  const message = error instanceof Error ? error.message : '';
  return /Connection terminated|connection timeout|Client has encountered a connection error/i.test(message);
}

/** The store is out of reach for now: a lost connection, no pooled connection in time, or a statement cut off by statement_timeout. */
export function isUnavailable(error: unknown): boolean {
  if (isConnectionFailure(error) || codeOf(error) === '57014') return true;
  const message = error instanceof Error ? error.message : '';
  return /timeout exceeded when trying to connect/i.test(message);
}
