import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import { dialectOf } from './dialect';
import { nameStatement } from './statement';

// biome-ignore lint/suspicious/noExplicitAny: a connection or a transaction of any schema
type Conn = Kysely<any>;

/** A value no caller sends, standing for the n-th argument while the query is compiled. */
const marker = (n: number) => `\u0000arg${n}\u0000`;

/**
 * A query Kysely builds and compiles once per engine, then runs with other arguments: the hot
 * read paths (every signed-in request, every task detail) spent more on building the query
 * object and its SQL than SQLite spent running it. `build` gets stand-ins for the arguments;
 * the compiled parameters that are stand-ins are replaced by the call's arguments in the order
 * the SQL takes them, the others (constants of the query) are kept. An argument may be any value
 * the driver binds (a number, null), but `build` must only hand it to Kysely as a value: it gets
 * a string stand-in, so code that branches on it would compile one branch for every call.
 */
export function prepared<A extends unknown[], R>(
  build: (db: Conn, ...args: A) => Compilable<R>,
): (db: Conn, ...args: A) => Promise<R[]> {
  const byDialect = new Map<string, { query: CompiledQuery<R>; slots: (number | null)[] }>();
  return async (db, ...args) => {
    const dialect = dialectOf(db);
    let compiled = byDialect.get(dialect);
    if (!compiled) {
      const markers = args.map((_, n) => marker(n)) as A;
      const query = build(db, ...markers).compile();
      const slots = query.parameters.map((p) => {
        const n = markers.indexOf(p as string);
        return n >= 0 ? n : null;
      });
      nameStatement(query.sql);
      compiled = { query, slots };
      byDialect.set(dialect, compiled);
    }
    const { query, slots } = compiled;
    const parameters = query.parameters.map((p, i) => {
      const n = slots[i];
      return n === null ? p : args[n];
    });
    const next: CompiledQuery<R> = { ...query, parameters };
    return (await db.executeQuery<R>(next)).rows;
  };
}
