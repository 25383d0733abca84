import type { InboxType } from '../db/schema';
import { adminUserHistoryQuerySchema } from './admin';

export type { InboxType };

/** GET /api/notifications: one page, newest first (page, limit up to 100, 20 unless given). */
export const inboxQuerySchema = adminUserHistoryQuerySchema;

/**
 * One message of the inbox. Fixed types carry no text: the web app shows them in the reader's
 * language from `type` (and links `ref`: a submission, a withdrawal or a task). A customMessage
 * carries the admin's own title and message.
 */
/**
 * What a message is about, read from its `ref` when listed (only the reader's own records): the
 * task (linked by id) and the amount paid, refunded or asked for (TL), and a proof's rejection
 * reason code (REJECTION_REASONS, shown in the reader's language).
 */
export interface InboxContextDto {
  taskId: string | null;
  taskTitle: string | null;
  amount: number | null;
  reasonCode: string | null;
}

export interface InboxItemDto {
  _id: string;
  type: InboxType;
  title: string | null;
  message: string | null;
  ref: string | null;
  createdAt: string;
  read: boolean;
  /** null for a custom message or when its record is gone */
  context: InboxContextDto | null;
}

export interface InboxPageDto {
  items: InboxItemDto[];
  total: number;
  unread: number;
  page: number;
  limit: number;
  pages: number;
}
