import { DEFAULT_SETTINGS } from '../../contract/settings-defaults';
import type { SettingsDto } from '../../contract/types';
import type { Db } from '../../db/database';
import { readSections } from './settings.repository';

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Stored values over the defaults, field by field, keeping only values of the default's type. */
function merge<T>(defaults: T, stored: unknown): T {
  if (!isRecord(defaults) || !isRecord(stored)) return defaults;
  const out: Record<string, unknown> = { ...defaults };
  for (const [key, def] of Object.entries(defaults)) {
    const value = stored[key];
    if (value === undefined) continue;
    if (isRecord(def)) out[key] = merge(def, value);
    else if (Array.isArray(def)) {
      if (Array.isArray(value)) out[key] = value;
    } else if (def === null) {
      // the nullable fields (logo, favicon) are URLs
      if (value === null || typeof value === 'string') out[key] = value;
    } else if (typeof value === typeof def) out[key] = value;
  }
  return out as T;
}

export async function getSettings(db: Db): Promise<SettingsDto> {
  const stored = await readSections(db);
  return {
    site: merge(DEFAULT_SETTINGS.site, stored.site),
    contact: merge(DEFAULT_SETTINGS.contact, stored.contact),
    socialMedia: merge(DEFAULT_SETTINGS.socialMedia, stored.socialMedia),
    payment: merge(DEFAULT_SETTINGS.payment, stored.payment),
  };
}
