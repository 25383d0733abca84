// What a column costs in a statement of one table and in a join, on the SQLite better-sqlite3
// ships (and on node:sqlite's, for a second build of the same library): the measurement behind
// docs/decisions.md "Joins on the hot paths". Prints µs per statement for a row of 20 columns
// read by key alone, through a join on a key, and with the other table's column as a subquery.
// Run: node bench/sqlite-join-cost.mjs
import { DatabaseSync } from 'node:sqlite';
import Database from 'better-sqlite3';

const COLUMNS = Array.from({ length: 20 }, (_, k) => `c${k + 1}`);
const ROUNDS = 50_000;

function fill(db) {
  db.exec(`create table a (id text primary key, b_id text not null, x text);
    create table b (id text primary key, ${COLUMNS.map((c) => `${c} text`).join(', ')})`);
  const insertB = db.prepare(`insert into b values (${['?', ...COLUMNS.map(() => '?')].join(', ')})`);
  const insertA = db.prepare('insert into a values (?, ?, ?)');
  db.exec('begin');
  for (let i = 0; i < 10_000; i++) {
    insertB.run(`b${i}`, ...COLUMNS.map((c) => `${c} of ${i}`));
    insertA.run(`a${i}`, `b${i}`, `x${i}`);
  }
  db.exec('commit');
}

function time(statement, args) {
  for (let i = 0; i < 2_000; i++) statement.get(...args);
  const started = process.hrtime.bigint();
  for (let i = 0; i < ROUNDS; i++) statement.get(...args);
  return Number(process.hrtime.bigint() - started) / ROUNDS / 1000;
}

const shapes = [
  ['b by key, 20 columns', `select ${COLUMNS.join(', ')} from b where id = ?`, ['b5']],
  [
    'a join b on the key, 20 columns of b',
    `select ${COLUMNS.map((c) => `b.${c}`).join(', ')} from a join b on b.id = a.b_id where a.id = ?`,
    ['a5'],
  ],
  ['a join b on the key, 1 column of b', 'select b.c1 from a join b on b.id = a.b_id where a.id = ?', ['a5']],
  [
    'b by key, 20 columns, a.x as a subquery',
    `select ${COLUMNS.join(', ')}, (select x from a where a.b_id = b.id and a.id = ?) as x from b where id = ?`,
    ['a5', 'b5'],
  ],
];

for (const [name, open] of [
  ['better-sqlite3', () => new Database(':memory:')],
  ['node:sqlite', () => new DatabaseSync(':memory:')],
]) {
  const db = open();
  fill(db);
  const version = db.prepare('select sqlite_version() as v').get().v;
  console.log(`${name} (SQLite ${version})`);
  const results = shapes.map(([label, sql, args]) => [label, time(db.prepare(sql), args)]);
  for (const [label, us] of results) console.log(`  ${label.padEnd(42)} ${us.toFixed(2)} µs`);
  const perColumn = (results[1][1] - results[2][1]) / 19;
  const alone = (results[0][1] - 0) / 20;
  console.log(
    `  a column read through the join: ${perColumn.toFixed(2)} µs (by key alone, at most ${alone.toFixed(2)})`,
  );
  db.close();
}
