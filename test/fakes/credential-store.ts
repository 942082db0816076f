import { DEFAULT_TIME_ZONE, USER_AGENT_MAX, type OneTimePurpose, type SignInRecords, type WebSession } from '../../src/ports/credential-store.ts';

/** The sign-in part of the in-memory CredentialStore (memoryAccountStore holds it): passes the same contract suite as the SQL stores. */
export function memorySignInRecords(): SignInRecords {
  const holders = new Map<string, { passwordHash: string | null; timeZone: string }>();
  const links = new Map<string, { accountId: string; purpose: OneTimePurpose; expiresAt: number; usedAt: number | null }>();
  const sessions = new Map<string, WebSession & { tokenHash: string; revokedAt: number | null }>();
  type Stored = WebSession & { tokenHash: string; revokedAt: number | null };
  const live = (s: Stored, ms: number, idleMs: number) => s.revokedAt === null && s.expiresAt.getTime() > ms && s.lastSeenAt.getTime() > ms - idleMs;
  const publicSession = ({ tokenHash: _hash, revokedAt: _revoked, ...session }: Stored): WebSession => session;
  const liveLink = (tokenHash: string, ms: number) => {
    const link = links.get(tokenHash);
    return link && link.usedAt === null && link.expiresAt > ms ? link : undefined;
  };
  return {
    async holder(accountId) {
      const h = holders.get(accountId);
      return h && { ...h };
    },
    async setTimeZone({ accountId, timeZone }) {
      holders.set(accountId, { passwordHash: holders.get(accountId)?.passwordHash ?? null, timeZone });
    },
    async addOneTimeLink({ tokenHash, accountId, purpose, expiresAt }) {
      if (links.has(tokenHash)) throw new Error('UNIQUE constraint failed: web_tokens.token_hash');
      links.set(tokenHash, { accountId, purpose, expiresAt: expiresAt.getTime(), usedAt: null });
    },
    async oneTimeLinkAccount(tokenHash, now) {
      return liveLink(tokenHash, now.getTime())?.accountId;
    },
    async redeemOneTimeLink({ tokenHash, passwordHash, now }) {
      const ms = now.getTime();
      const link = liveLink(tokenHash, ms);
      if (!link) return undefined;
      const accountId = link.accountId;
      for (const other of links.values()) if (other.accountId === accountId && other.usedAt === null) other.usedAt = ms;
      holders.set(accountId, { passwordHash, timeZone: holders.get(accountId)?.timeZone ?? DEFAULT_TIME_ZONE });
      for (const s of sessions.values()) if (s.accountId === accountId && s.revokedAt === null) s.revokedAt = ms;
      return accountId;
    },
    async changePassword({ accountId, passwordHash, keepSessionId, now }) {
      const ms = now.getTime();
      holders.set(accountId, { passwordHash, timeZone: holders.get(accountId)?.timeZone ?? DEFAULT_TIME_ZONE });
      for (const s of sessions.values()) if (s.accountId === accountId && s.sessionId !== keepSessionId && s.revokedAt === null) s.revokedAt = ms;
      for (const link of links.values()) if (link.accountId === accountId && link.usedAt === null) link.usedAt = ms;
    },
    async createSession({ sessionId, tokenHash, accountId, now, expiresAt, userAgent }) {
      if ([...sessions.values()].some((s) => s.tokenHash === tokenHash)) throw new Error('UNIQUE constraint failed: web_sessions.token_hash');
      sessions.set(sessionId, { sessionId, tokenHash, accountId, createdAt: now, expiresAt, lastSeenAt: now, revokedAt: null, userAgent: userAgent ? userAgent.slice(0, USER_AGENT_MAX) : null });
    },
    async findSession(tokenHash, now, idleMs) {
      const s = [...sessions.values()].find((x) => x.tokenHash === tokenHash);
      return s && live(s, now.getTime(), idleMs) ? publicSession(s) : undefined;
    },
    async listSessions(accountId, now, idleMs) {
      return [...sessions.values()]
        .filter((s) => s.accountId === accountId && live(s, now.getTime(), idleMs))
        .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || a.sessionId.localeCompare(b.sessionId))
        .map(publicSession);
    },
    async touchSession(sessionId, now) {
      const s = sessions.get(sessionId);
      if (s) sessions.set(sessionId, { ...s, lastSeenAt: now });
    },
    async revokeSession(sessionId, now) {
      const s = sessions.get(sessionId);
      if (s && s.revokedAt === null) s.revokedAt = now.getTime();
    },
    async revokeSessions(accountId, now) {
      let n = 0;
      for (const s of sessions.values()) {
        if (s.accountId === accountId && s.revokedAt === null && s.expiresAt.getTime() > now.getTime()) {
          s.revokedAt = now.getTime();
          n++;
        }
      }
      return n;
    },
  };
}
