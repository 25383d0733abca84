import type { UsersTable } from '../db/schema';
import type { AppDeps } from '../deps';
import type { VerifiedToken } from '../features/users/token';

export type UserRow = Omit<
  UsersTable,
  'balance' | 'total_earned' | 'name_search' | 'language' | 'email_notifications'
> & {
  balance: number;
  total_earned: number;
  /** 'tr' or 'en' (contract/constants.ts MAIL_LANGUAGES) */
  language: string;
  email_notifications: number;
};

/** Hono's environment for every route: the dependencies, and the signed-in user when there is one. */
export interface AppEnv {
  Variables: {
    deps: AppDeps;
    user: UserRow;
    /** the signed-in request's token, as verified */
    session: VerifiedToken;
    /** set on the routes an admin still enrolling in two-factor may use (http/auth.ts) */
    enrolling?: boolean;
  };
}
