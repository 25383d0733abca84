import type { AppDeps } from '../../deps';
import { getSettings } from '../settings/settings.service';

/**
 * Whether the settings require two-factor of admins. Apart from the service so the request
 * guard (http/auth.ts) can ask it without importing the sign-in code that imports the guard.
 */
export async function adminTwoFactorRequired(deps: Pick<AppDeps, 'db'>): Promise<boolean> {
  return (await getSettings(deps.db)).security.requireAdminTwoFactor;
}
