/**
 * The password-hashing thread (hasher-thread.ts starts it): scrypt on this thread, one request at
 * a time, so hashing never occupies Node's shared thread pool, where file reads and writes wait.
 */
import { parentPort } from 'node:worker_threads';
import { hashPasswordHere, verifyPasswordHere } from '../../core/password.ts';
import type { ToHasher } from './hasher-thread.ts';

const port = parentPort!;

port.on('message', (message: ToHasher) => {
  try {
    const value = message.op === 'hash' ? hashPasswordHere(message.password) : verifyPasswordHere(message.password, message.stored);
    port.postMessage({ id: message.id, value });
  } catch (error) {
    port.postMessage({ id: message.id, error: error instanceof Error ? error.message : String(error) });
  }
});
