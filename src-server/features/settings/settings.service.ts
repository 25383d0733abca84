import type { SettingsUpdate } from '../../contract/admin';
import { FIELD_MESSAGES } from '../../contract/schemas';
import { DEFAULT_SETTINGS } from '../../contract/settings-defaults';
import type { SettingsDto } from '../../contract/types';
import type { Db } from '../../db/database';
import { nowIso } from '../../db/ids';
import { lockForTransaction } from '../../db/locks';
import type { AppDeps } from '../../deps';
import { fail } from '../../errors';
import { changedFields, recordAudit } from '../audit/audit.repository';
import { readSections, SETTINGS_SECTIONS, writeSection } from './settings.repository';

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
    review: merge(DEFAULT_SETTINGS.review, stored.review),
    security: merge(DEFAULT_SETTINGS.security, stored.security),
  };
}

/** A stored section as a record (a damaged or missing one counts as empty). */
function storedSection(stored: Record<string, unknown>, key: string): Record<string, unknown> {
  const value = stored[key];
  return isRecord(value) ? value : {};
}

/** Only the fields that were sent, over what is stored (undefined ones are not sent). */
function overlay(stored: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const out = { ...stored };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    out[key] = isRecord(value) ? overlay(isRecord(stored[key]) ? stored[key] : {}, value) : value;
  }
  return out;
}

/**
 * PUT /api/settings (admins): the sections sent are merged field by field into what is
 * stored, in one transaction; the reply is the whole settings as GET shows them. Returns the
 * image URLs the change removed, for the caller to delete.
 */
export async function updateSettings(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  patch: SettingsUpdate,
  options: {
    imagesFromUpload?: boolean;
    actorId: string;
    action?: 'settings.update' | 'settings.logo' | 'settings.favicon';
  },
): Promise<{ settings: SettingsDto; dropped: string[] }> {
  const dropped: string[] = [];
  await deps.db.transaction().execute(async (tx) => {
    // two admins' edits on two nodes merge one after the other, neither lost; an
    // advisory lock because a section's row may not exist yet
    await lockForTransaction(tx, 'settings');
    const stored = await readSections(tx);
    const now = nowIso(deps.clock);
    const changes: Record<string, [unknown, unknown]> = {};
    for (const key of SETTINGS_SECTIONS) {
      const section = patch[key];
      if (!section) continue;
      const before = storedSection(stored, key);
      const after = overlay(before, section);
      for (const image of ['logo', 'favicon']) {
        const old = before[image];
        // a client may keep or remove an image, never point it at another stored file
        const given = after[image];
        if (!options.imagesFromUpload && typeof given === 'string' && given !== old) {
          throw fail.validation({ [`${key}.${image}`]: FIELD_MESSAGES.invalidValue });
        }
        if (typeof old === 'string' && old !== after[image]) dropped.push(old);
      }
      await writeSection(tx, key, after, now);
      // compared as the settings read: the defaults under what is stored
      const shown = (v: Record<string, unknown>) =>
        merge(DEFAULT_SETTINGS[key] as Record<string, unknown>, v) as Record<string, unknown>;
      for (const [field, pair] of Object.entries(changedFields(shown(before), shown(after))))
        changes[`${key}.${field}`] = pair;
    }
    // in the same transaction: who changed which setting from what to what
    if (Object.keys(changes).length > 0)
      await recordAudit(tx, {
        actorId: options.actorId,
        action: options.action ?? 'settings.update',
        targetType: 'settings',
        targetId: null,
        changes,
        at: now,
      });
  });
  return { settings: await getSettings(deps.db), dropped };
}
