import type { AccountStore } from '../../ports/account-store.ts';
import type { CredentialStore } from '../../ports/credential-store.ts';

/**
 * The stores of one database, sharing its connections. accounts.close() closes the database
 * (migrate() brings the whole schema, both stores' tables, up to date).
 */
export interface DatabaseStores {
  readonly accounts: AccountStore;
  readonly credentials: CredentialStore;
}
