import type { AppDeps } from '../deps';
import type { VerifiedToken } from '../features/users/token';
import type { UserRow } from '../features/users/users.repository';

/** Hono's environment for every route: the dependencies, and the signed-in user when there is one. */
export interface AppEnv {
  Variables: {
    deps: AppDeps;
    user: UserRow;
    /** the signed-in request's token, as verified */
    session: VerifiedToken;
    /**
     * The change stamp (db/change-stamp.ts) a signed-in request read before its session, for
     * the request's other remembered reads: one stamp per request. Unset for a visitor.
     */
    stamp?: string | null;
    /** set on the routes an admin still enrolling in two-factor may use (http/auth.ts) */
    enrolling?: boolean;
  };
}
