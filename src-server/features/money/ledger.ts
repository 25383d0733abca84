import type { Kysely, Transaction } from 'kysely';
import { nowIso } from '../../db/ids';
import { prepared } from '../../db/prepared';
import type { DB, LedgerTable } from '../../db/schema';
import { fail } from '../../errors';
import {
  addToBalance,
  addToPayableBalance,
  setBalanceIfStill,
  takeFromBalance,
} from '../users/users.repository';

/**
 * The only code that changes a balance. Every change is a conditional UPDATE of the user
 * and one ledger row, written with the caller's transaction so both commit or neither does.
 * Amounts are integer kuruş.
 */
export type Tx = Transaction<DB>;
export type LedgerKind = LedgerTable['kind'];

export interface Movement {
  userId: string;
  /** kuruş, > 0 */
  amount: number;
  /** what the row explains: a submission id for a reward, a withdrawal id for a hold or refund */
  ref: string | null;
  actorId: string | null;
  /** ISO time; now when omitted */
  at?: string;
}

function assertAmount(amount: number): void {
  if (!Number.isSafeInteger(amount) || amount <= 0)
    throw new Error(`ledger amount must be kuruş > 0: ${amount}`);
}

// compiled once: every money move writes one
const insertRow = prepared(
  (
    tx: Kysely<DB>,
    userId: string,
    amount: number,
    kind: LedgerKind,
    ref: string | null,
    actorId: string | null,
    at: string,
  ) =>
    tx.insertInto('ledger').values({ user_id: userId, amount, kind, ref, actor_id: actorId, created_at: at }),
);

async function writeRow(tx: Tx, kind: LedgerKind, signed: number, m: Movement): Promise<void> {
  await insertRow(tx, m.userId, signed, kind, m.ref, m.actorId, m.at ?? nowIso());
}

/**
 * Adds to a balance; a reward also adds to total_earned. Returns false (and writes nothing)
 * when the user does not exist.
 */
export async function credit(
  tx: Tx,
  m: Movement & { kind: 'reward' | 'withdrawal_refund' | 'adjustment' },
): Promise<boolean> {
  assertAmount(m.amount);
  if (!(await addToBalance(tx, m.userId, m.amount, m.kind === 'reward'))) return false;
  await writeRow(tx, m.kind, m.amount, m);
  return true;
}

/**
 * A reward paid only to an account that may be paid (live, not banned), the condition part of
 * the balance's UPDATE, with its ledger row. Returns the account's role and status, or undefined
 * (nothing written) when it may not be paid: the caller reads the account to say why.
 */
export async function creditIfPayable(tx: Tx, m: Movement) {
  assertAmount(m.amount);
  const payee = await addToPayableBalance(tx, m.userId, m.amount);
  if (payee) await writeRow(tx, 'reward', m.amount, m);
  return payee;
}

/**
 * Takes from a balance only if it covers the amount (`balance >= :x` in the same
 * statement). Returns false, writing nothing, when it does not.
 */
export async function debit(
  tx: Tx,
  m: Movement & { kind: 'withdrawal_hold' | 'adjustment' },
): Promise<boolean> {
  assertAmount(m.amount);
  if (!(await takeFromBalance(tx, m.userId, m.amount))) return false;
  await writeRow(tx, m.kind, -m.amount, m);
  return true;
}

export interface Adjustment {
  /** kuruş before and after */
  previous: number;
  next: number;
  /** the signed difference written to the ledger (0: nothing written) */
  delta: number;
}

/**
 * Sets a balance to an exact figure (the admin's user edit) and writes an 'adjustment'
 * row with the difference and the admin's id. The UPDATE only applies if the balance is
 * still the one read, so a concurrent change is re-read instead of overwritten.
 */
export async function adjustBalance(
  tx: Tx,
  userId: string,
  newBalanceKurus: number,
  adminId: string,
  at?: string,
): Promise<Adjustment> {
  if (!Number.isSafeInteger(newBalanceKurus) || newBalanceKurus < 0) {
    throw fail.invalid('invalid_amount', 'balance');
  }
  for (let attempt = 0; attempt < 5; attempt++) {
    // a deleted account's balance is settled by its deletion and never changes again
    const row = await tx
      .selectFrom('users')
      .select('balance')
      .where('_id', '=', userId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!row) throw fail.notFound('user_not_found');
    const previous = Number(row.balance);
    const delta = newBalanceKurus - previous;
    if (delta === 0) return { previous, next: previous, delta };
    if (await setBalanceIfStill(tx, userId, previous, newBalanceKurus, true)) {
      await writeRow(tx, 'adjustment', delta, {
        userId,
        amount: Math.abs(delta),
        ref: null,
        actorId: adminId,
        at,
      });
      return { previous, next: newBalanceKurus, delta };
    }
  }
  throw fail.conflict('idempotency_conflict');
}

/**
 * A deleted user's whole balance moved out (the admin's forfeit): the balance set to 0 only if
 * it is still the one read, and one `forfeit` row (negative, the admin as actor, the user's id
 * as its ref, so once per user). Returns the kuruş moved (0: nothing to move, nothing written).
 */
export async function forfeitBalance(tx: Tx, userId: string, adminId: string, at: string): Promise<number> {
  const row = await tx.selectFrom('users').select('balance').where('_id', '=', userId).executeTakeFirst();
  if (!row) throw fail.notFound('user_not_found');
  const amount = Number(row.balance);
  if (amount <= 0) return 0;
  if (!(await setBalanceIfStill(tx, userId, amount, 0, false))) throw fail.conflict('idempotency_conflict');
  await writeRow(tx, 'forfeit', -amount, { userId, amount, ref: userId, actorId: adminId, at });
  return amount;
}
