import type { CompiledQuery } from 'kysely';

/**
 * The SQL texts the hot paths compile once and run again and again, each with the name
 * PostgreSQL prepares it under (db/postgres.ts): a named statement is parsed and planned once
 * per connection instead of on every execution. The name stands for one text for the life of
 * the process, whichever pooled connection runs it. Bounded, so a caller that made a new text
 * per request could not grow every connection's statements without end: past the bound a text
 * runs unnamed, as any other query does.
 */
const names = new Map<string, string>();
const MAX_NAMED = 1_000;

/** Marks an SQL text as one the process runs many times (called when it is compiled). */
export function nameStatement(sql: string): void {
  if (names.size < MAX_NAMED && !names.has(sql)) names.set(sql, `tr${names.size + 1}`);
}

let renamed = 0;

/**
 * Gives a marked text a new name: PostgreSQL refuses to run a prepared statement whose result
 * columns changed under it (a migration of another node altered a table the text selects `*`
 * from), and the text is then prepared afresh, under a name no connection holds yet.
 */
export function renameStatement(sql: string): string | undefined {
  if (!names.has(sql)) return undefined;
  renamed++;
  const name = `tr${names.size + renamed}r`;
  names.set(sql, name);
  return name;
}

/** The name PostgreSQL knows a marked text by; undefined for any other text. */
export function statementName(sql: string): string | undefined {
  return names.get(sql);
}

/**
 * A query compiled once, run again with other parameters of the same shape: the hot read paths
 * build their SQL with Kysely once (so it is the dialect's SQL) instead of on every request,
 * and the driver finds the same prepared statement by its text.
 */
export function withParameters<R>(query: CompiledQuery<R>, parameters: readonly unknown[]): CompiledQuery<R> {
  nameStatement(query.sql);
  return { ...query, parameters };
}
