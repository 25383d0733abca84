import { kurusToTl } from '../../contract/money';
import type { UserDto } from '../../contract/types';
import type { UserRow, UserTotals } from './users.repository';

/** The API shape of a user: camelCase, lira numbers, and never the password hash. */
export function toUserDto(row: UserRow, totals: UserTotals): UserDto {
  return {
    _id: row._id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    address: row.address,
    bio: row.bio,
    profileImage: row.profile_image,
    role: row.role,
    status: row.status,
    banReason: row.ban_reason,
    balance: kurusToTl(row.balance),
    pendingBalance: kurusToTl(totals.pendingBalance),
    totalEarnings: kurusToTl(row.total_earned),
    completedTasks: totals.completedTasks,
    pendingTasks: totals.pendingTasks,
    createdAt: row.created_at,
    joinDate: row.created_at,
    updatedAt: row.updated_at,
    lastActive: row.last_active,
    oneSignalId: row.one_signal_id,
    device_id: row.device_id,
    emailVerified: row.email_verified_at !== null,
    language: row.language === 'en' ? 'en' : 'tr',
    emailNotifications: row.email_notifications !== 0,
  };
}
