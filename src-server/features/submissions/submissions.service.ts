import type { Page } from '../../contract';
import type { ReviewStatus } from '../../contract/constants';
import {
  checkProof,
  type SubmissionDto,
  type SubmissionFields,
  type SubmissionSort,
} from '../../contract/submissions';
import { isUniqueViolation } from '../../db/errors';
import { newId, nowIso } from '../../db/ids';
import type { AppDeps } from '../../deps';
import { type AppError, fail } from '../../errors';
import type { FileStore } from '../../storage/file-store';
import type { ProofPrints, SanitizedImage } from '../../storage/image';
import { type ImageUpload, sanitizeReceivedProof } from '../../storage/received-image';
import { proofLookupColumns } from '../fraud/fingerprint-bands';
import { insertFlag } from '../fraud/fraud.repository';
import { duplicateProofFlag, findDuplicateProofs, tooFastFlag } from '../fraud/signals';
import { getSettings } from '../settings/settings.service';
import { type Conn, findTask } from '../tasks/tasks.repository';
import {
  completeUserTask,
  findUserTask,
  latestSubmission,
  type UserTaskRow,
} from '../tasks/user-tasks.repository';
import type { UserRow } from '../users/users.repository';
import { holdLiveUser } from '../users/users.repository';
import { toSubmissionDto } from './submissions.mapper';
import {
  findSubmission,
  insertSubmission,
  listSubmissions,
  listUserSubmissions,
} from './submissions.repository';

type Deps = Pick<AppDeps, 'db' | 'clock' | 'secret' | 'work' | 'files'>;

const PROOF_FORMATS = ['png', 'jpeg'] as const;

/**
 * Why a record cannot take a proof now: none in progress, its time ran out (task_expired, even
 * before the sweep ended it), or one already waiting for review.
 */
async function submitRefusal(
  db: Conn,
  record: UserTaskRow | undefined,
  now: string,
): Promise<AppError | null> {
  if (!record) return fail.conflict('submission_not_allowed');
  if (record.status === 'expired' && record.end_reason === 'task_closed') return fail.conflict('task_closed');
  const overdue = record.status === 'in_progress' && record.expires_at !== null && record.expires_at <= now;
  if (record.status === 'expired' || overdue) return fail.conflict('task_expired');
  if (record.status === 'in_progress') return null;
  const latest = await latestSubmission(db, record._id);
  return latest?.status === 'pending'
    ? fail.conflict('submission_pending')
    : fail.conflict('submission_not_allowed');
}

/** The proof form: its image field, the image formats it takes, and its one long text field. */
export const PROOF_FORM = {
  fileField: 'proofImage',
  formats: PROOF_FORMATS,
  textField: 'description',
} as const;

/**
 * POST /api/submissions: checks the record, re-encodes the image (outside any transaction),
 * stores it durably, then in one transaction moves the record to completed and inserts the
 * pending submission with the task's current reward. The file is removed if that fails.
 */
export async function submitProof(
  deps: Deps,
  user: UserRow,
  upload: ImageUpload,
  fields: SubmissionFields,
  arrivedAt = nowIso(deps.clock),
): Promise<SubmissionDto> {
  const task = await findTask(deps.db, fields.task);
  if (!task) {
    // deleted while the worker had it in their list: say so, not "not found"
    if (await findUserTask(deps.db, user._id, fields.task)) throw fail.conflict('task_closed');
    throw fail.notFound('task_not_found');
  }
  const started = await findUserTask(deps.db, user._id, task._id);
  const refusal = await submitRefusal(deps.db, started, arrivedAt);
  if (refusal) throw refusal;

  // the proof its task asks for: an image, a link, a code, a text or nothing
  const proofType = task.required_proof;
  const checked = checkProof(proofType, {
    proofUrl: upload.fields.proofUrl,
    proofText: upload.fields.proofText,
    hasImage: upload.file !== null,
  });
  if (!checked.ok) throw fail.validation(checked.errors);
  if (proofType === 'screenshot' && !upload.file) throw fail.invalid('proof_required', 'proofImage');

  const store = deps.files;
  let stored: Awaited<ReturnType<typeof storeProofFiles>> | null = null;
  let duplicates: Awaited<ReturnType<typeof findDuplicateProofs>> = null;
  if (proofType === 'screenshot') {
    const image = await sanitizeReceivedProof(upload, PROOF_FORMATS, 'proofImage');
    // the proof's files go to the store (written and fsynced off the event loop) while the fraud
    // signals are read, before the transaction: flags, never a refusal
    const [files, found] = await Promise.allSettled([
      storeProofFiles(store, image),
      findDuplicateProofs(deps.db, {
        userId: user._id,
        taskId: task._id,
        probes: image.probes,
      }),
    ]);
    if (files.status === 'rejected') throw files.reason;
    if (found.status === 'rejected') {
      await removeProofFiles(store, files.value);
      throw found.reason;
    }
    stored = files.value;
    duplicates = found.value;
  }
  const id = newId();
  try {
    await deps.db.transaction().execute(async (trx) => {
      const now = nowIso(deps.clock);
      if (!(await holdLiveUser(trx, user._id))) throw fail.unauthorized();
      const current = await findTask(trx, task._id);
      if (!current) throw fail.conflict('task_closed');
      const record = await findUserTask(trx, user._id, task._id);
      if (!record || !(await completeUserTask(trx, record._id, now, arrivedAt))) {
        // read again: the conditional update may have lost to a sweep that committed after the
        // first read (PostgreSQL's READ COMMITTED gives each statement the latest commits)
        const fresh = record && (await findUserTask(trx, user._id, task._id));
        throw (await submitRefusal(trx, fresh, arrivedAt)) ?? fail.conflict('submission_not_allowed');
      }
      await insertSubmission(trx, {
        _id: id,
        user_task_id: record._id,
        user_id: user._id,
        task_id: task._id,
        status: 'pending',
        description: fields.description,
        feedback: null,
        rejection_reason: null,
        reward: current.reward,
        proof_type: proofType,
        proof_url: checked.proof.url,
        proof_text: checked.proof.text,
        proof_file: stored?.name ?? null,
        proof_thumb: stored?.thumb ?? null,
        proof_hash: stored?.hash ?? null,
        ...proofLookupColumns(stored),
        created_at: now,
        updated_at: now,
        reviewed_by: null,
        reviewed_at: null,
      });
      if (duplicates) {
        await insertFlag(
          trx,
          duplicateProofFlag(duplicates, { submissionId: id, userId: user._id, at: now }),
        );
      }
      const tooFast = tooFastFlag({
        submissionId: id,
        userId: user._id,
        task: current,
        startedAt: record.started_at,
        sentAt: arrivedAt,
      });
      if (tooFast) await insertFlag(trx, tooFast);
    });
  } catch (err) {
    if (stored) await removeProofFiles(store, stored);
    if (isUniqueViolation(err)) throw fail.conflict('submission_pending');
    throw err;
  }
  const autoApproveDays = (await getSettings(deps.db)).review.autoApproveDays;
  return toSubmissionDto((await findSubmission(deps.db, id))!, {
    secret: deps.secret,
    now: deps.clock(),
    autoApproveDays,
  });
}

/** The proof and thumbnail files of an upload that did not become a submission. */
async function removeProofFiles(store: FileStore, files: { name: string; thumb: string }) {
  await store.remove('proofs', files.name);
  await store.remove('proofs', files.thumb);
}

/** A sanitized proof stored durably with its thumbnail (both or neither). */
async function storeProofFiles(
  store: FileStore,
  image: SanitizedImage & { thumbnail: Buffer } & ProofPrints,
) {
  const name = await store.save('proofs', image.bytes, image.contentType);
  try {
    const thumb = await store.save('proofs', image.thumbnail, 'image/webp');
    return { name, thumb, hash: image.hash, print: image.print };
  } catch (err) {
    await store.remove('proofs', name);
    throw err;
  }
}

/** GET /api/submissions/user: the user's own, newest first. */
export async function mySubmissions(
  deps: Deps,
  user: UserRow,
  status?: ReviewStatus,
): Promise<SubmissionDto[]> {
  const autoApproveDays = (await getSettings(deps.db)).review.autoApproveDays;
  const signing = { secret: deps.secret, now: deps.clock(), autoApproveDays };
  return (await listUserSubmissions(deps.db, user._id, status)).map((row) => toSubmissionDto(row, signing));
}

/** GET /api/submissions (admins): one page, newest first. */
export async function allSubmissions(
  deps: Pick<AppDeps, 'db' | 'clock' | 'secret'>,
  query: {
    status?: ReviewStatus;
    q?: string;
    appeal?: 'pending';
    task?: string;
    user?: string;
    flagged?: boolean;
    sort?: SubmissionSort;
    page: number;
    limit: number;
  },
): Promise<Page<SubmissionDto>> {
  const { rows, total } = await listSubmissions(
    deps.db,
    {
      status: query.status,
      q: query.q,
      appealPending: query.appeal === 'pending',
      taskId: query.task,
      userId: query.user,
      flagged: query.flagged,
    },
    { offset: (query.page - 1) * query.limit, limit: query.limit },
    query.sort,
  );
  const signing = { secret: deps.secret, now: deps.clock() };
  return {
    items: rows.map((row) => toSubmissionDto(row, signing)),
    total,
    page: query.page,
    limit: query.limit,
    pages: Math.ceil(total / query.limit),
  };
}
