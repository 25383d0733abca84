import type { AdminUserDetailDto, AdminUserSummaryDto } from '../../contract/admin';
import { kurusToTl } from '../../contract/money';
import { toUserDto } from './users.mapper';
import type { UserRow, UserTotals } from './users.repository';

/** A row of the admin user list: money in TL, never the password hash. */
export function toAdminUserSummary(row: UserRow): AdminUserSummaryDto {
  return {
    _id: row._id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    profileImage: row.profile_image,
    role: row.role,
    status: row.status,
    banReason: row.ban_reason,
    balance: kurusToTl(row.balance),
    totalEarned: kurusToTl(row.total_earned),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    lastActive: row.last_active,
    oneSignalId: row.one_signal_id,
    device_id: row.device_id,
  };
}

/** The user detail: the profile's shape plus totalEarned (the same number as totalEarnings). */
export function toAdminUserDetail(row: UserRow, totals: UserTotals): AdminUserDetailDto {
  const dto = toUserDto(row, totals);
  return { ...dto, totalEarned: dto.totalEarnings };
}
