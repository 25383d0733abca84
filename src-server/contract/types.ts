import type { PaymentMethod, Role, UserStatus } from './constants';

/** The user as the API shows it to the user themself (never the hash). */
export interface UserDto {
  _id: string;
  name: string;
  email: string;
  phone: string | null;
  address: string | null;
  bio: string | null;
  profileImage: string | null;
  role: Role;
  status: UserStatus;
  banReason: string | null;
  balance: number;
  pendingBalance: number;
  totalEarnings: number;
  completedTasks: number;
  pendingTasks: number;
  createdAt: string;
  joinDate: string;
  updatedAt: string;
  lastActive: string | null;
  oneSignalId: string | null;
  device_id: string | null;
  /** the address was proved the owner's by a mailed link */
  emailVerified: boolean;
  /** the language of the account's mails: 'tr' or 'en' */
  language: 'tr' | 'en';
  /** mails about reviews and payouts (the inbox gets every event either way) */
  emailNotifications: boolean;
}

export interface AuthReply {
  success: true;
  token: string;
  message: string;
  data: UserDto;
}

/** Claims in the HS256 token: the user fields the app reads without a database query. */
export interface TokenClaims {
  sub: string;
  /** the id of the session the token belongs to: ending the session ends the token */
  sid: string;
  name: string;
  email: string;
  role: Role;
  status: UserStatus;
  banReason: string | null;
  /** a keyed stamp of the password the token was issued under: a new password ends the session */
  pwv: string;
  /** issued with remember-me (30 days rather than 1) */
  rem: boolean;
}

export interface SettingsDto {
  site: {
    name: string;
    description: { tr: string; en: string };
    logo: string | null;
    favicon: string | null;
  };
  contact: { email: string; phone: string; address: string };
  socialMedia: { facebook: string; twitter: string; instagram: string; linkedin: string };
  /** requireVerifiedEmail: a withdrawal needs a verified address (403 email_not_verified) */
  payment: { minimumPayout: number; methods: PaymentMethod[]; requireVerifiedEmail: boolean };
  /** autoApproveDays: a proof pending this many days is approved by the system; 0 = off */
  review: { autoApproveDays: number };
  /** requireAdminTwoFactor: an admin without two-factor reaches only its enrolment */
  security: { requireAdminTwoFactor: boolean };
}

export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  limit: number;
  pages: number;
}
