import { z } from 'zod';
import { FIELD_MESSAGES } from './schemas';

/** The stable codes of the audit log's actions (what an admin, or the system, did). */
export const AUDIT_ACTIONS = [
  'task.create',
  'task.update',
  'task.delete',
  'task.feature',
  'submission.approve',
  'submission.reject',
  'submission.auto_approve',
  'appeal.overturn',
  'appeal.uphold',
  'user.update',
  'user.status',
  'user.balance',
  'user.password',
  'user.delete',
  'withdrawal.approve',
  'withdrawal.reject',
  'settings.update',
  'settings.logo',
  'settings.favicon',
  'settings.legal',
  'notification.send',
  'flag.dismiss',
  'admin.create',
  'admin.promote',
  'user.sessions_end',
  'user.two_factor_remove',
  'user.note',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_TARGETS = [
  'task',
  'submission',
  'user',
  'withdrawal',
  'settings',
  'notification',
] as const;
export type AuditTarget = (typeof AUDIT_TARGETS)[number];

/**
 * A field's value before and after, or a plain fact of the action (a reason, a count). Fields are
 * named as the API names them (`isFeatured`, `banReason`; a setting as `section.field`), amounts
 * are in kuruş.
 */
export type AuditChanges = Record<string, [unknown, unknown] | unknown>;

const blank = (v: unknown) => (v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v);
const isoDate = z.preprocess(
  blank,
  z
    .string({ error: FIELD_MESSAGES.invalidValue })
    .regex(/^\d{4}-\d{2}-\d{2}$/, FIELD_MESSAGES.invalidValue)
    .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)), FIELD_MESSAGES.invalidValue)
    .optional(),
);
const id = z.preprocess(
  blank,
  z
    .string({ error: FIELD_MESSAGES.invalidValue })
    .regex(/^[0-9a-f]{24}$/, FIELD_MESSAGES.invalidValue)
    .optional(),
);

/** GET /api/admin/audit: newest first, filtered by admin, action, target and days (UTC, inclusive). */
export const auditQuerySchema = z.object({
  page: z.preprocess(blank, z.coerce.number().int().min(1).max(1_000_000).default(1)),
  limit: z.preprocess(blank, z.coerce.number().int().min(1).max(100).default(25)),
  actor: id,
  action: z.preprocess(blank, z.enum(AUDIT_ACTIONS, { error: FIELD_MESSAGES.invalidValue }).optional()),
  targetType: z.preprocess(blank, z.enum(AUDIT_TARGETS, { error: FIELD_MESSAGES.invalidValue }).optional()),
  targetId: id,
  from: isoDate,
  to: isoDate,
});
export type AuditQuery = z.output<typeof auditQuerySchema>;

export interface AuditEntryDto {
  id: number;
  at: string;
  /**
   * null: the system (auto-approval), the command line or the setup link. The name and email
   * are the ones the actor had when the row was written (null: an actor deleted before the log
   * kept them); `deleted`: their account has been deleted since.
   */
  actor: { _id: string; name: string | null; email: string | null; deleted: boolean } | null;
  action: string;
  target: AuditTargetDto;
  changes: AuditChanges;
  /** the accounts the changes name by id (a forfeit's `user`), by that id */
  people: Record<string, AuditPerson>;
}

/**
 * An account as it is now. A deleted account has no name or email here (they were scrubbed):
 * the screen says "deleted user".
 */
export interface AuditPerson {
  _id: string;
  name: string | null;
  email: string | null;
  deleted: boolean;
}

/**
 * What a row is about, named as it is now: the user (a user, or the worker of a proof or a
 * payout), the task (a task, or the task of a proof) with its title, a payout's amount (kuruş).
 * `gone`: the target's row no longer exists at all.
 */
export interface AuditTargetDto {
  type: string;
  id: string | null;
  user: AuditPerson | null;
  task: { _id: string; title: string | null; deleted: boolean } | null;
  amount: number | null;
  gone: boolean;
}
