// What a SQLite COMMIT costs the thread that makes it, by the pages it changed: with
// synchronous=FULL (the fdatasync of the WAL in the COMMIT) and NORMAL (none), and with the
// automatic checkpoint off, at SQLite's 1,000 pages and at the server's 4,000
// (SERVER_AUTOCHECKPOINT_PAGES). A table of 20,000 rows of 3 KB (a row a page), each transaction
// rewriting PAGES rows spread over it; 1,000 transactions per figure, on a temp folder of the
// disk the data folder would be on.
//   node bench/wal-commit-cost.mjs [DIR]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';

const base = process.argv[2] ?? tmpdir();
const ROWS = 20_000;
const TRANSACTIONS = 1_000;

function measure(synchronous, autocheckpoint, pages) {
  const dir = mkdtempSync(join(base, 'taskreward-wal-cost-'));
  const db = new Database(join(dir, 'x.db'));
  try {
    db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${synchronous}`);
    db.pragma(`wal_autocheckpoint = ${autocheckpoint}`);
    db.exec('create table t (id integer primary key, v blob)');
    const insert = db.prepare('insert into t (id, v) values (?, randomblob(3000))');
    db.transaction(() => {
      for (let i = 0; i < ROWS; i++) insert.run(i);
    })();
    db.pragma('wal_checkpoint(TRUNCATE)');
    const update = db.prepare('update t set v = randomblob(3000) where id = ?');
    let commitNs = 0n;
    for (let k = 0; k < TRANSACTIONS; k++) {
      db.exec('begin immediate');
      for (let p = 0; p < pages; p++) update.run((k * 97 + p * 331) % ROWS);
      const start = process.hrtime.bigint();
      db.exec('commit');
      commitNs += process.hrtime.bigint() - start;
    }
    return Number(commitNs) / TRANSACTIONS / 1000;
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

console.log('| synchronous | automatic checkpoint | pages changed | COMMIT µs | µs per page |');
console.log('|---|---|---|---|---|');
for (const [synchronous, autocheckpoint] of [
  ['FULL', 4000],
  ['NORMAL', 4000],
  ['NORMAL', 1000],
  ['NORMAL', 0],
]) {
  for (const pages of [1, 5, 20, 60]) {
    const us = measure(synchronous, autocheckpoint, pages);
    console.log(
      `| ${synchronous} | ${autocheckpoint || 'off'} | ${pages} | ${us.toFixed(1)} | ${(us / pages).toFixed(1)} |`,
    );
  }
}
