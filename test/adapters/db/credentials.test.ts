import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPostgresStores } from '../../../src/adapters/db/postgres.ts';
import { createSqliteStores } from '../../../src/adapters/db/sqlite.ts';
import { memoryAccountStore } from '../../fakes/account-store.ts';
import { createMemoryCredentialStore } from '../../fakes/credential-store.ts';
import { createDatabase } from '../../support/postgres.ts';
import { credentialStoreContract } from '../credential-store.contract.ts';

credentialStoreContract('SQLite', {
  async open() {
    const dir = await mkdtemp(join(tmpdir(), 'spq-credentials-'));
    const stores = createSqliteStores({ file: join(dir, 'spq.sqlite') });
    await stores.accounts.migrate();
    return { ...stores, close: async () => (await stores.accounts.close(), await rm(dir, { recursive: true, force: true })) };
  },
});

credentialStoreContract('PostgreSQL', {
  async open() {
    const database = await createDatabase('spq_cred');
    const stores = createPostgresStores({ url: database.url, maxConnections: 8 });
    await stores.accounts.migrate();
    return { ...stores, close: async () => (await stores.accounts.close(), await database.drop()) };
  },
});

credentialStoreContract('memory (fake)', {
  async open() {
    return { accounts: memoryAccountStore(), credentials: createMemoryCredentialStore(), close: async () => undefined };
  },
});
