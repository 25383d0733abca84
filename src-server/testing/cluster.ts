/**
 * The environment of one of many app nodes (issue 18) over the test's SQLite file: the shared
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
