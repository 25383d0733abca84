import { kurusToTl } from '../../contract/money';
import { maskAccountNumber, type WithdrawalDto } from '../../contract/withdrawals';
import type { WithdrawalRow } from './withdrawals.repository';

/** The API shape; the account number is masked except for admins. */
export function toWithdrawalDto(row: WithdrawalRow, viewer: { admin: boolean }): WithdrawalDto {
  return {
    _id: row._id,
    amount: kurusToTl(row.amount),
    paymentMethod: row.payment_method,
    accountDetails: {
      fullName: row.full_name,
      accountNumber: viewer.admin ? row.account_number : maskAccountNumber(row.account_number),
    },
    status: row.status,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    reviewedAt: row.reviewed_at,
    rejectionReason: row.rejection_reason,
    description: row.description,
    user: { _id: row.user_id, name: row.user_name },
  };
}
