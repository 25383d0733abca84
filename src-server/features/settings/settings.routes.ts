import { type Context, Hono } from 'hono';
import { settingsUpdateSchema } from '../../contract/admin';
import { envelope } from '../../contract/envelope';
import { isLegalDocument, type LegalDocument, legalUpdateSchema } from '../../contract/legal';
import { fail } from '../../errors';
import { requireAdmin } from '../../http/auth';
import type { AppEnv } from '../../http/env';
import { receiveImageForm } from '../../http/image-upload';
import { readJson } from '../../http/validate';
import { getLegalDocument, updateLegalDocument } from './legal.service';
import { getSettings, updateSettings } from './settings.service';
import { removeStoredImages, type SiteImage, siteImageForm, uploadSiteImage } from './settings-images';

/** Streams a site image in under the file rules, then sets it; the staged file goes either way. */
async function siteImage(c: Context<AppEnv>, field: SiteImage): Promise<Response> {
  const { deps, user } = c.var;
  const upload = await receiveImageForm(deps, user._id, c.req.raw, siteImageForm(field));
  try {
    return c.json(envelope(await uploadSiteImage(deps, user._id, field, upload)));
  } finally {
    await upload.discard();
  }
}

/** The legal document a path names, or 404 for any other name. */
function legalDocumentOf(name: string): LegalDocument {
  if (!isLegalDocument(name)) throw fail.notFound('not_found');
  return name;
}

/** GET is public (the footer and the payout rules need it); changes are for admins. */
export const settingsRoutes = new Hono<AppEnv>()
  .get('/', async (c) => {
    return c.json(envelope(await getSettings(c.var.deps.db)));
  })
  .put('/', requireAdmin, async (c) => {
    const patch = await readJson(c, settingsUpdateSchema);
    const { settings, dropped } = await updateSettings(c.var.deps, patch, { actorId: c.var.user._id });
    await removeStoredImages(c.var.deps, dropped);
    return c.json(envelope(settings));
  })
  .put('/logo', requireAdmin, (c) => siteImage(c, 'logo'))
  .put('/favicon', requireAdmin, (c) => siteImage(c, 'favicon'))
  // the legal pages: read by anyone (linked from the sign-up form and the footer)
  .get('/legal/:document', async (c) => {
    const document = legalDocumentOf(c.req.param('document'));
    return c.json(envelope(await getLegalDocument(c.var.deps.db, document)));
  })
  .put('/legal/:document', requireAdmin, async (c) => {
    const document = legalDocumentOf(c.req.param('document'));
    const patch = await readJson(c, legalUpdateSchema);
    return c.json(envelope(await updateLegalDocument(c.var.deps, document, patch, c.var.user._id)));
  });
