import type { AdminUsersQuery } from '../../contract/admin';
import { REJECTION_REASONS, type RejectionReason, type ReviewStatus } from '../../contract/constants';
import { EXPORT_WORDS, type ExportKind, type ExportLanguage } from '../../contract/exports';
import type { AdminWithdrawalsQuery } from '../../contract/withdrawals';
import type { Db } from '../../db/database';
import { type Cursor, submissionsBatch, usersBatch, withdrawalsBatch } from './admin-exports.repository';
import { type Cell, type CsvDialect, csvLine } from './csv';

/** Rows per query: big enough to be fast, small enough that memory stays flat. */
export const EXPORT_BATCH = 1000;

export type ExportFilters =
  | {
      kind: 'submissions';
      status?: ReviewStatus;
      q?: string;
      task?: string;
      user?: string;
      flagged?: boolean;
      appeal?: 'pending';
    }
  | {
      kind: 'withdraws';
      filter: Pick<AdminWithdrawalsQuery, 'status' | 'from' | 'to' | 'q' | 'userId' | 'flagged'>;
    }
  | { kind: 'users'; filter: Pick<AdminUsersQuery, 'q' | 'status'> };

const isReason = (v: string | null): v is RejectionReason =>
  v !== null && (REJECTION_REASONS as readonly string[]).includes(v);

/** Yields the export's rows as cells, batch by batch, newest first. */
async function* rows(
  db: Db,
  f: ExportFilters,
  d: CsvDialect,
  lang: ExportLanguage,
): AsyncGenerator<Cell[][]> {
  const w = EXPORT_WORDS[lang];
  const money = (k: number) => ({ raw: d.money(k) });
  const date = (iso: string | null) => ({ raw: d.date(iso) });
  const reason = (r: string | null) => (isReason(r) ? w.reason[r] : r);
  let cursor: Cursor | null = null;
  for (;;) {
    let batch: Cell[][];
    let last: Cursor | null;
    if (f.kind === 'submissions') {
      const got = await submissionsBatch(db, f, cursor, EXPORT_BATCH);
      batch = got.map((r) => [
        r._id,
        date(r.created_at),
        r.task_title,
        r.task_id,
        r.user_name,
        r.user_email,
        r.user_id,
        w.status[r.status] ?? r.status,
        money(r.reward),
        r.description,
        r.feedback,
        reason(r.rejection_reason),
        date(r.reviewed_at),
      ]);
      const end = got.at(-1);
      last = end ? { createdAt: end.created_at, id: end._id } : null;
    } else if (f.kind === 'withdraws') {
      const got = await withdrawalsBatch(db, f.filter, cursor, EXPORT_BATCH);
      batch = got.map((r) => [
        r._id,
        date(r.created_at),
        r.user_name,
        r.user_email,
        r.user_id,
        money(r.amount),
        w.method[r.payment_method] ?? r.payment_method,
        r.full_name,
        r.account_number,
        w.status[r.status] ?? r.status,
        r.description,
        r.rejection_reason,
        date(r.reviewed_at),
      ]);
      const end = got.at(-1);
      last = end ? { createdAt: end.created_at, id: end._id } : null;
    } else {
      const got = await usersBatch(db, f.filter, cursor, EXPORT_BATCH);
      batch = got.map((r) => [
        r._id,
        r.name,
        r.email,
        r.phone,
        w.role[r.role] ?? r.role,
        w.status[r.status] ?? r.status,
        r.ban_reason,
        money(r.balance),
        money(r.total_earned),
        date(r.created_at),
        date(r.last_active),
      ]);
      const end = got.at(-1);
      last = end ? { createdAt: end.created_at, id: end._id } : null;
    }
    if (batch.length > 0) yield batch;
    if (batch.length < EXPORT_BATCH || !last) return;
    cursor = last;
  }
}

/**
 * The export as a byte stream: the prefix and header, then one batch of rows per pull, so
 * the reader's pace (the socket's backpressure) sets how fast rows are read and memory holds
 * one batch whatever the number of rows.
 */
export function exportStream(
  db: Db,
  filters: ExportFilters,
  dialect: CsvDialect,
  lang: ExportLanguage,
  onEnd: () => void = () => {},
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const header =
    dialect.prefix + csvLine(EXPORT_WORDS[lang].columns[filters.kind as ExportKind], dialect.separator);
  const source = rows(db, filters, dialect, lang);
  let ended = false;
  const end = () => {
    if (!ended) {
      ended = true;
      onEnd();
    }
  };
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controller.enqueue(encoder.encode(header));
      },
      async pull(controller) {
        try {
          const next = await source.next();
          if (next.done) {
            end();
            controller.close();
            return;
          }
          controller.enqueue(
            encoder.encode(next.value.map((cells) => csvLine(cells, dialect.separator)).join('')),
          );
        } catch (err) {
          end();
          controller.error(err);
        }
      },
      async cancel() {
        end();
        await source.return(undefined);
      },
    },
    { highWaterMark: 1 },
  );
}
