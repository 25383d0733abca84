import type { CompiledQuery } from 'kysely';

/**
 * A query compiled once, run again with other parameters of the same shape: the hot read paths
 * build their SQL with Kysely once (so it is the dialect's SQL) instead of on every request,
 * and the driver finds the same prepared statement by its text.
 */
export function withParameters<R>(query: CompiledQuery<R>, parameters: readonly unknown[]): CompiledQuery<R> {
  return { ...query, parameters };
}
