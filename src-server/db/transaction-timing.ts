import type { DatabaseConnection, Driver } from 'kysely';
import { dbTransactionDuration } from '../observability/metrics';

/**
 * Wraps a Kysely driver so each transaction's time from BEGIN to COMMIT or ROLLBACK goes into
 * the transaction-duration metric: long transactions hold SQLite's one write lock (and
 * PostgreSQL's row locks) and are what an operator looks for when requests queue up.
 */
export function timeTransactions<D extends Driver>(driver: D): D {
  const began = new WeakMap<DatabaseConnection, number>();
  const end = (connection: DatabaseConnection, outcome: 'commit' | 'rollback') => {
    const at = began.get(connection);
    if (at === undefined) return;
    began.delete(connection);
    dbTransactionDuration.observe({ outcome }, (performance.now() - at) / 1000);
  };
  const begin = driver.beginTransaction.bind(driver);
  const commit = driver.commitTransaction.bind(driver);
  const rollback = driver.rollbackTransaction.bind(driver);
  driver.beginTransaction = async (connection, settings) => {
    await begin(connection, settings);
    began.set(connection, performance.now());
  };
  driver.commitTransaction = async (connection) => {
    try {
      await commit(connection);
    } finally {
      end(connection, 'commit');
    }
  };
  driver.rollbackTransaction = async (connection) => {
    try {
      await rollback(connection);
    } finally {
      end(connection, 'rollback');
    }
  };
  return driver;
}
