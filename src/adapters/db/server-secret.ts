import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, type Config } from '../../config.ts';

export const SERVER_SECRET_FILE = 'server-secret';
/** The shortest SPQ_SERVER_SECRET accepted (a generated one is 64 hex characters). */
export const MIN_SECRET_BYTES = 32;

/**
 * The server secret that keys API-key hashes (and signs download links): SPQ_SERVER_SECRET when
 * set, otherwise a random 256-bit secret generated once and kept in <dataDir>/server-secret
 * (mode 0600). Instances that share a database must share the secret: set SPQ_SERVER_SECRET in
 * a scale-out deployment.
 */
export function loadServerSecret(config: Config): string {
  if (config.serverSecret !== undefined) {
    if (config.serverSecret.trim() === '') throw new ConfigError('SPQ_SERVER_SECRET is empty');
    // It keys every API-key hash and signs every link: guessable is as good as none.
    if (Buffer.byteLength(config.serverSecret, 'utf8') < MIN_SECRET_BYTES) {
      throw new ConfigError(`SPQ_SERVER_SECRET must be at least ${MIN_SECRET_BYTES} bytes (e.g. openssl rand -hex 32); it has ${Buffer.byteLength(config.serverSecret, 'utf8')}`);
    }
    return config.serverSecret;
  }
  const file = join(config.dataDir, SERVER_SECRET_FILE);
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  // Written to a private temporary file and linked into place, so that two processes starting
  // together never read a half-written secret: link() fails if the secret already exists.
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(temporary, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  try {
    linkSync(temporary, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    unlinkSync(temporary);
  }
  const secret = readFileSync(file, 'utf8').trim();
  if (secret.length < 32) throw new ConfigError(`${file} holds no usable secret (delete it to generate a new one; existing API keys then stop working)`);
  return secret;
}
