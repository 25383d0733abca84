import type { Kysely, Transaction } from 'kysely';
import type { Db } from '../../db/database';
import type { DB } from '../../db/schema';

type Conn = Db | Kysely<DB> | Transaction<DB>;

export interface NewNote {
  _id: string;
  userId: string;
  authorId: string;
  body: string;
  at: string;
}

/** One note, the author's name copied from users as it is now, in the same statement. */
export async function insertNote(db: Conn, n: NewNote): Promise<void> {
  await db
    .insertInto('user_notes')
    .values({
      _id: n._id,
      user_id: n.userId,
      author_id: n.authorId,
      author_name: db.selectFrom('users').select('name').where('_id', '=', n.authorId),
      body: n.body,
      created_at: n.at,
    })
    .execute();
}

/** An account's notes, newest first. */
export function notesOf(db: Conn, userId: string) {
  return db
    .selectFrom('user_notes')
    .select(['_id', 'author_id', 'author_name', 'body', 'created_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('_id', 'desc')
    .execute();
}

export async function countNotesOf(db: Conn, userId: string): Promise<number> {
  const row = await db
    .selectFrom('user_notes')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Erases an account's notes (its deletion): returns how many there were. */
export async function deleteNotesOf(db: Conn, userId: string): Promise<number> {
  const res = await db.deleteFrom('user_notes').where('user_id', '=', userId).executeTakeFirst();
  return Number(res.numDeletedRows);
}
