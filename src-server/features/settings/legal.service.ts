import type { LegalDocument, LegalDocumentDto, LegalUpdate } from '../../contract/legal';
import type { Db } from '../../db/database';
import { nowIso } from '../../db/ids';
import { lockForTransaction } from '../../db/locks';
import type { AppDeps } from '../../deps';
import { recordAudit } from '../audit/audit.repository';
import { fillTemplate, LEGAL_TEMPLATES } from './legal-defaults';
import { legalKey, readRow, writeSection } from './settings.repository';
import { getSettings } from './settings.service';

const LANGUAGES = ['tr', 'en'] as const;

/** The saved texts of a document, language by language (a damaged or odd row counts as none). */
function savedTexts(value: unknown): { tr?: string; en?: string } {
  if (typeof value !== 'object' || value === null) return {};
  const out: { tr?: string; en?: string } = {};
  for (const lang of LANGUAGES) {
    const text = (value as Record<string, unknown>)[lang];
    if (typeof text === 'string' && text.trim() !== '') out[lang] = text;
  }
  return out;
}

/**
 * GET /api/settings/legal/{document} (public): the admin's text in each language, or the
 * built-in template (with the site's name and contact filled in) where none was saved.
 */
export async function getLegalDocument(db: Db, document: LegalDocument): Promise<LegalDocumentDto> {
  const [row, settings] = await Promise.all([readRow(db, legalKey(document)), getSettings(db)]);
  const saved = savedTexts(row?.value);
  const site = { name: settings.site.name, email: settings.contact.email, address: settings.contact.address };
  const template = LEGAL_TEMPLATES[document];
  return {
    document,
    tr: saved.tr ?? fillTemplate(template.tr, site),
    en: saved.en ?? fillTemplate(template.en, site),
    template: { tr: saved.tr === undefined, en: saved.en === undefined },
    updatedAt: saved.tr !== undefined || saved.en !== undefined ? (row?.updatedAt ?? null) : null,
  };
}

/**
 * PUT /api/settings/legal/{document} (admins): the languages sent replace the stored ones (an
 * empty text returns that language to the template), under the settings lock so two admins'
 * saves follow one another. The audit names the languages changed and their lengths, not the
 * texts, which the row itself keeps.
 */
export async function updateLegalDocument(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  document: LegalDocument,
  patch: LegalUpdate,
  actorId: string,
): Promise<LegalDocumentDto> {
  await deps.db.transaction().execute(async (tx) => {
    await lockForTransaction(tx, 'settings');
    const before = savedTexts((await readRow(tx, legalKey(document)))?.value);
    const after = { ...before };
    const changes: Record<string, [number, number]> = {};
    for (const lang of LANGUAGES) {
      const given = patch[lang];
      if (given === undefined) continue;
      if (given === '') delete after[lang];
      else after[lang] = given;
      if ((before[lang] ?? '') !== (after[lang] ?? ''))
        changes[`${document}.${lang}`] = [before[lang]?.length ?? 0, after[lang]?.length ?? 0];
    }
    if (Object.keys(changes).length === 0) return;
    const now = nowIso(deps.clock);
    await writeSection(tx, legalKey(document), after, now);
    await recordAudit(tx, {
      actorId,
      action: 'settings.legal',
      targetType: 'settings',
      targetId: null,
      changes,
      at: now,
    });
  });
  return getLegalDocument(deps.db, document);
}
