import type { Db } from '../../db/database';

/** Every stored section as parsed JSON, keyed by section name. */
export async function readSections(db: Db): Promise<Record<string, unknown>> {
  const rows = await db.selectFrom('settings').select(['key', 'value']).execute();
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
