import type { Db } from '../../db/database';

/** The sections of GET /api/settings, one row each. */
export const SETTINGS_SECTIONS = ['site', 'contact', 'socialMedia', 'payment', 'review', 'security'] as const;

/** The row of a legal text (both languages): read only by its own page, never with the sections. */
export const legalKey = (document: string) => `legal.${document}`;

/**
 * Every stored section as parsed JSON, keyed by section name. The legal texts' rows are left
 * out: they are long and read by their own pages, not by every settings read.
 */
export async function readSections(db: Db): Promise<Record<string, unknown>> {
  const rows = await db
    .selectFrom('settings')
    .select(['key', 'value'])
    .where('key', 'in', [...SETTINGS_SECTIONS])
    .execute();
  const out: Record<string, unknown> = {};
  for (const row of rows) {
    try {
      out[row.key] = JSON.parse(row.value);
    } catch {
      // a damaged row falls back to the defaults
    }
  }
  return out;
}

export async function writeSection(db: Db, key: string, value: unknown, now: string): Promise<void> {
  await db
    .insertInto('settings')
    .values({ key, value: JSON.stringify(value), updated_at: now })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: JSON.stringify(value), updated_at: now }))
    .execute();
}

/** One stored row as parsed JSON with its time; undefined when missing or damaged. */
export async function readRow(
  db: Db,
  key: string,
): Promise<{ value: unknown; updatedAt: string } | undefined> {
  const row = await db
    .selectFrom('settings')
    .select(['value', 'updated_at'])
    .where('key', '=', key)
    .executeTakeFirst();
  if (!row) return undefined;
  try {
    return { value: JSON.parse(row.value), updatedAt: row.updated_at };
  } catch {
    return undefined;
  }
}
