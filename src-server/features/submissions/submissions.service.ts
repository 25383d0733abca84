import type { Page } from '../../contract';
import { MAX_PROOF_BYTES, type ReviewStatus } from '../../contract/constants';
import { FIELD_MESSAGES } from '../../contract/schemas';
import { type SubmissionDto, submissionFieldsSchema } from '../../contract/submissions';
import { newId, nowIso } from '../../db/ids';
import type { AppDeps } from '../../deps';
import { type AppError, fail } from '../../http/app-error';
import type { UserRow } from '../../http/env';
import { check } from '../../http/validate';
import { fileStoreFor } from '../../storage/file-store';
import { ImageError, type SanitizedImage, sniffImage } from '../../storage/image';
import { sanitizeImageOffThread } from '../../storage/image-worker';
import { type ReceivedUpload, receiveUpload, UploadError } from '../../storage/upload';
import { type Conn, findTask } from '../tasks/tasks.repository';
import {
  completeUserTask,
  findUserTask,
  latestSubmission,
  type UserTaskRow,
} from '../tasks/user-tasks.repository';
import { toSubmissionDto } from './submissions.mapper';
import {
  findSubmission,
  insertSubmission,
  listSubmissions,
  listUserSubmissions,
} from './submissions.repository';

type Deps = Pick<AppDeps, 'db' | 'clock' | 'config' | 'secret'>;

const PROOF_FORMATS = ['png', 'jpeg'] as const;

function isUniqueViolation(err: unknown): boolean {
  return err instanceof Error && 'code' in err && err.code === 'SQLITE_CONSTRAINT_UNIQUE';
}

function uploadFailure(err: unknown): AppError | unknown {
  if (!(err instanceof UploadError)) return err;
  if (err.reason === 'too_large') return fail.tooLarge('file_too_large');
  if (err.reason === 'type') return fail.unsupported('file_type');
  if (err.reason === 'field_too_long') return fail.validation({ description: FIELD_MESSAGES.tooLong });
  return fail.badRequest();
}

function imageFailure(err: unknown): AppError | unknown {
  if (!(err instanceof ImageError)) return err;
  if (err.reason === 'too_big') return fail.tooLarge('image_too_big');
  if (err.reason === 'type') return fail.unsupported('file_type');
  return fail.invalid('image_unreadable', 'proofImage');
}

/** Why a record cannot take a proof now: none in progress, or one already waiting for review. */
async function submitRefusal(db: Conn, record: UserTaskRow | undefined): Promise<AppError | null> {
  if (!record) return fail.conflict('submission_not_allowed');
  if (record.status === 'in_progress') return null;
  const latest = await latestSubmission(db, record._id);
  return latest?.status === 'pending'
    ? fail.conflict('submission_pending')
    : fail.conflict('submission_not_allowed');
}

/** Streams the multipart body into the temp folder, refusing a wrong or too large file on the way. */
export async function receiveProof(
  deps: Deps,
  body: ReadableStream<Uint8Array> | null,
  contentType?: string,
) {
  if (!contentType?.toLowerCase().startsWith('multipart/form-data')) throw fail.unsupported();
  try {
    return await receiveUpload(fileStoreFor(deps.config.dataDir), body, contentType, {
      fileField: 'proofImage',
      maxFileBytes: MAX_PROOF_BYTES,
      accept: (head) => {
        const format = sniffImage(head);
        return format === 'png' || format === 'jpeg';
      },
    });
  } catch (err) {
    throw uploadFailure(err);
  }
}

/**
 * POST /api/submissions: checks the record, re-encodes the image (outside any transaction),
 * stores it durably, then in one transaction moves the record to completed and inserts the
 * pending submission with the task's current reward. The file is removed if that fails.
 */
export async function submitProof(deps: Deps, user: UserRow, upload: ReceivedUpload): Promise<SubmissionDto> {
  if (!upload.file) throw fail.invalid('proof_required', 'proofImage');
  const fields = check(submissionFieldsSchema, upload.fields);
  const task = await findTask(deps.db, fields.task);
  if (!task) throw fail.notFound('task_not_found');
  const refusal = await submitRefusal(deps.db, await findUserTask(deps.db, user._id, task._id));
  if (refusal) throw refusal;

  let image: SanitizedImage;
  try {
    image = await sanitizeImageOffThread(await upload.readFile(), { allow: PROOF_FORMATS });
  } catch (err) {
    throw imageFailure(err);
  }
  const store = fileStoreFor(deps.config.dataDir);
  const name = await store.save('proofs', image.bytes, image.contentType);
  const id = newId();
  try {
    await deps.db.transaction().execute(async (trx) => {
      const now = nowIso(deps.clock);
      const current = await findTask(trx, task._id);
      if (!current) throw fail.notFound('task_not_found');
      const record = await findUserTask(trx, user._id, task._id);
      if (!record || !(await completeUserTask(trx, record._id, now))) {
        throw (await submitRefusal(trx, record)) ?? fail.conflict('submission_not_allowed');
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
        proof_file: name,
        created_at: now,
        updated_at: now,
        reviewed_by: null,
        reviewed_at: null,
      });
    });
  } catch (err) {
    await store.remove('proofs', name);
    if (isUniqueViolation(err)) throw fail.conflict('submission_pending');
    throw err;
  }
  return toSubmissionDto((await findSubmission(deps.db, id))!, { secret: deps.secret, now: deps.clock() });
}

/** GET /api/submissions/user: the user's own, newest first. */
export async function mySubmissions(
  deps: Deps,
  user: UserRow,
  status?: ReviewStatus,
): Promise<SubmissionDto[]> {
  const signing = { secret: deps.secret, now: deps.clock() };
  return (await listUserSubmissions(deps.db, user._id, status)).map((row) => toSubmissionDto(row, signing));
}

/** GET /api/submissions (admins): one page, newest first. */
export async function allSubmissions(
  deps: Deps,
  query: { status?: ReviewStatus; q?: string; page: number; limit: number },
): Promise<Page<SubmissionDto>> {
  const { rows, total } = await listSubmissions(
    deps.db,
    { status: query.status, q: query.q },
    { offset: (query.page - 1) * query.limit, limit: query.limit },
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
