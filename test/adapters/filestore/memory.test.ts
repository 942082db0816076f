/**
 * The in-memory FileStore fake (test/fakes/file-store.ts) runs the same contract suite as the
 * local and S3 stores, so unit tests that use it see what production would.
 */
import type { FileStore } from '../../../src/ports/file-store.ts';
import { memoryFileStore } from '../../fakes/file-store.ts';
import { fileStoreContract, serviceLinkDownload } from './file-store.contract.ts';

const SECRET = 'memory-store-test-secret';
const BASE = 'http://127.0.0.1:8080';
let current: FileStore | undefined;

fileStoreContract('memory (fake)', {
  make: async () => {
    current = memoryFileStore({ baseUrl: `${BASE}/`, secret: SECRET });
    return current;
  },
  download: serviceLinkDownload(BASE, SECRET, () => current),
});
