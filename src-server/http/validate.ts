import type { Context } from 'hono';
import type { z } from 'zod';
import { ruleProblemOf } from '../contract/rules';
import { fieldErrors } from '../contract/schemas';
import { fail } from '../errors';

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/**
 * Checks a value against a contract schema; a 422 with the field messages when it does not fit,
 * or with the broken rule's own code for a schema of ordered rules (contract/rules.ts).
 */
export function check<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const problem = ruleProblemOf(parsed.error);
    throw problem ? fail.rule(problem) : fail.validation(fieldErrors(parsed.error));
  }
  return parsed.data;
}

/**
 * Reads a JSON object body (400 when it is not JSON or not an object) and checks it.
 * A body declared as anything but JSON is a 415, refused before it is read: multipart
 * bodies skip the JSON size limit, so reading one here would have no bound.
 */
export async function readJson<S extends z.ZodType>(c: Context, schema: S): Promise<z.output<S>> {
  const type = c.req.header('Content-Type');
  if (type !== undefined && type.trim() !== '' && !JSON_TYPE.test(type.trim())) throw fail.unsupported();
  let body: unknown;
  try {
    // decoded keeping any byte-order mark: one may lead (RFC 8259 section 8.1), a second is not
    // JSON (the Fetch text() decode of this Node dropped two, so '\uFEFF\uFEFF{}' was read as {})
    let text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await c.req.arrayBuffer());
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    body = /^[ \t\n\r]*$/.test(text) ? {} : JSON.parse(text);
  } catch {
    throw fail.badRequest('malformed_json');
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw fail.badRequest('malformed_json');
  return check(schema, body);
}
