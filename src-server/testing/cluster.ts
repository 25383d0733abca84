import { inject } from 'vitest';
import { cloneTestDatabase, testDatabaseUrl } from '../db/test-databases';

/**
 * The environment of one of many app nodes over the test's SQLite file: the shared
 * state in the database, the scheduled jobs under their locks, a TOKEN_SECRET as required.
 */
export const CLUSTER_ENV: Record<string, string> = {
  CLUSTER: '1',
  TOKEN_SECRET: 'a-secret-every-test-node-shares-0123456789',
};

/** The two ways the app keeps its state, for tests that must hold in both. */
export const NODE_MODES: [string, Record<string, string>][] = [
  ['one node', {}],
  ['many nodes', CLUSTER_ENV],
];

/**
 * The environment of nodes sharing one database, for tests that open several apps on it: a
 * PostgreSQL database of their own on the PostgreSQL run (TEST_DATABASE_URL), else the SQLite file
 * of the data folder they share. `drop` removes the PostgreSQL database.
 */
export async function sharedDatabase(): Promise<{ env: Record<string, string>; drop: () => Promise<void> }> {
  const url = testDatabaseUrl();
  if (!url) return { env: CLUSTER_ENV, drop: async () => {} };
  const database = await cloneTestDatabase(url, inject('pgTemplate')!);
  return { env: { ...CLUSTER_ENV, DATABASE_URL: database.url }, drop: database.drop };
}
