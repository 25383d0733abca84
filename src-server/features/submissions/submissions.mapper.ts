import { isAppealable } from '../../contract/appeals';
import type { ReviewStatus } from '../../contract/constants';
import { kurusToTl } from '../../contract/money';
import type { SubmissionDto } from '../../contract/submissions';
import { signedProofUrl } from '../files/file-urls';
import { autoApproveAt } from './auto-approve';
import type { SubmissionRow } from './submissions.repository';

/**
 * The API shape of a submission, with a freshly signed proof URL. Only for replies to the
 * submission's owner or an admin.
 */
export function toSubmissionDto(
  row: SubmissionRow,
  signing: { secret: Uint8Array; now: Date; autoApproveDays?: number },
): SubmissionDto {
  return {
    _id: row._id,
    status: row.status satisfies ReviewStatus,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    reviewedAt: row.reviewed_at,
    description: row.description,
    feedback: row.feedback,
    feedbackCode: row.feedback_code,
    rejectionReason: row.rejection_reason,
    reward: kurusToTl(row.reward),
    autoApproved: row.auto_approved === 1,
    appeal:
      row.appeal_status === null
        ? null
        : {
            message: row.appeal_message ?? '',
            createdAt: row.appeal_created_at ?? '',
            status: row.appeal_status,
            decidedAt: row.appeal_decided_at,
            response: row.appeal_response,
          },
    appealable: isAppealable(row, signing.now),
    autoApproveAt:
      row.status === 'pending' ? autoApproveAt(row.created_at, signing.autoApproveDays ?? 0) : null,
    proofType: row.proof_type,
    proofUrl: row.proof_url,
    proofText: row.proof_text,
    proofImageUrl: row.proof_file ? signedProofUrl(signing.secret, row.proof_file, signing.now) : null,
    proofThumbnailUrl: row.proof_thumb ? signedProofUrl(signing.secret, row.proof_thumb, signing.now) : null,
    task: { _id: row.task_id, title: row.task_title, reward: kurusToTl(row.task_reward) },
    user: { _id: row.user_id, name: row.user_name },
  };
}
