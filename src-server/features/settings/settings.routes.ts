import { Hono } from 'hono';
import { settingsUpdateSchema } from '../../contract/admin';
import { isLegalDocument, type LegalDocument, legalUpdateSchema } from '../../contract/legal';
import { fail } from '../../http/app-error';
import { requireAdmin } from '../../http/auth';
import type { AppEnv } from '../../http/env';
import { readJson } from '../../http/validate';
import { getLegalDocument, updateLegalDocument } from './legal.service';
import { getSettings, updateSettings } from './settings.service';
import { removeStoredImages, uploadSiteImage } from './settings-images';

/** The legal document a path names, or 404 for any other name. */
function legalDocumentOf(name: string): LegalDocument {
  if (!isLegalDocument(name)) throw fail.notFound('not_found');
  return name;
}

/** GET is public (the footer and the payout rules need it); changes are for admins. */
export const settingsRoutes = new Hono<AppEnv>()
  .get('/', async (c) => {
    return c.json({ success: true, data: await getSettings(c.var.deps.db) });
  })
  .put('/', requireAdmin, async (c) => {
    const patch = await readJson(c, settingsUpdateSchema);
    const { settings, dropped } = await updateSettings(c.var.deps, patch, { actorId: c.var.user._id });
    await removeStoredImages(c.var.deps, dropped);
    return c.json({ success: true, data: settings });
  })
  .put('/logo', requireAdmin, async (c) => {
    const data = await uploadSiteImage(c.var.deps, c.var.user._id, 'logo', c.req.raw);
    return c.json({ success: true, data });
  })
  .put('/favicon', requireAdmin, async (c) => {
    const data = await uploadSiteImage(c.var.deps, c.var.user._id, 'favicon', c.req.raw);
    return c.json({ success: true, data });
  })
  // the legal pages: read by anyone (linked from the sign-up form and the footer)
  .get('/legal/:document', async (c) => {
    const document = legalDocumentOf(c.req.param('document'));
    return c.json({ success: true, data: await getLegalDocument(c.var.deps.db, document) });
  })
  .put('/legal/:document', requireAdmin, async (c) => {
    const document = legalDocumentOf(c.req.param('document'));
    const patch = await readJson(c, legalUpdateSchema);
    const data = await updateLegalDocument(c.var.deps, document, patch, c.var.user._id);
    return c.json({ success: true, data });
  });
