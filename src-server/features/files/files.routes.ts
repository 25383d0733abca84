import { type Context, Hono } from 'hono';
import { fail } from '../../errors';
import type { AppEnv } from '../../http/env';
import { FILE_CSP } from '../../http/security';
import { isStoredName, type StoredFile } from '../../storage/file-store';
import { verifyProofUrl } from './file-urls';

function serve(c: Context<AppEnv>, file: StoredFile, cacheControl: string): Response {
  c.header('Content-Type', file.contentType);
  c.header('X-Content-Type-Options', 'nosniff');
  c.header('Content-Security-Policy', FILE_CSP);
  c.header('Content-Disposition', 'inline');
  c.header('Cross-Origin-Resource-Policy', 'same-origin');
  c.header('Cache-Control', cacheControl);
  return c.body(new Uint8Array(file.bytes));
}

/** Stored files: private proofs behind a signed URL, public images by name. */
export const filesRoutes = new Hono<AppEnv>()
  .get('/proofs/:name', async (c) => {
    const { deps } = c.var;
    const name = c.req.param('name');
    const ok =
      isStoredName(name) &&
      verifyProofUrl(deps.secret, name, c.req.query('exp'), c.req.query('sig'), deps.clock());
    if (!ok) throw fail.forbidden();
    const file = await deps.files.read('proofs', name);
    if (!file) throw fail.notFound();
    return serve(c, file, 'private, max-age=600');
  })
  .get('/images/:name', async (c) => {
    const name = c.req.param('name');
    const file = isStoredName(name) ? await c.var.deps.files.read('images', name) : null;
    if (!file) throw fail.notFound();
    // names are random and never reused: the content behind one never changes
    return serve(c, file, 'public, max-age=31536000, immutable');
  });
