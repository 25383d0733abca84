import { MAX_PROOF_BYTES } from '../contract/constants';
import { ERROR_MESSAGES } from '../contract/errors';
import { FIELD_MESSAGES } from '../contract/schemas';
import type { AppDeps } from '../deps';
import { fail } from '../errors';
import { type ImageFormat, sniffImage } from '../storage/image';
import type { ImageUpload } from '../storage/received-image';
import { receiveUpload, UploadError } from '../storage/upload';
import { workKey } from '../work/expensive-work';

/**
 * Streams a multipart form with one image field into the temp folder under the file rules
 * (5 MB, judged by its first bytes as one of `formats`), refusing on the way with the
 * contract's errors (413 file_too_large, 415 file_type, 422 for an over-long text field, 422
 * image_field when the only file came under another field name).
 * First it takes a place in the image queue for `ownerId` (the signed-in account): an account
 * with two images in flight is refused with 429 before its body is read. Discarding the
 * upload gives the place back.
 */
export async function receiveImageForm(
  deps: Pick<AppDeps, 'work' | 'files'>,
  ownerId: string,
  request: Request,
  options: { fileField: string; formats: readonly ImageFormat[]; textField?: string },
): Promise<ImageUpload> {
  const contentType = request.headers.get('Content-Type') ?? undefined;
  if (!contentType?.toLowerCase().startsWith('multipart/form-data')) throw fail.unsupported();
  const ticket = deps.work.cpu.reserve(workKey.user(ownerId));
  try {
    // the body stream is made only now: a request refused before this point leaves its body to
    // the server, which reads and drops it (made and left unread, it would reset the connection)
    const upload = await receiveUpload(deps.files, request.body, contentType, {
      fileField: options.fileField,
      maxFileBytes: MAX_PROOF_BYTES,
      accept: (head) => {
        const format = sniffImage(head);
        return format !== null && options.formats.includes(format);
      },
    });
    if (!upload.file && upload.strayFiles.length > 0) {
      // the image came under another name: say which name the route reads
      await upload.discard();
      throw imageFieldError(options.fileField);
    }
    return {
      ...upload,
      ticket,
      discard: async () => {
        ticket.release();
        await upload.discard();
      },
    };
  } catch (err) {
    ticket.release();
    if (!(err instanceof UploadError)) throw err;
    if (err.reason === 'too_large') throw fail.tooLarge('file_too_large');
    if (err.reason === 'type') throw fail.unsupported('file_type');
    if (err.reason === 'field_too_long')
      throw fail.validation({ [options.textField ?? '_']: FIELD_MESSAGES.tooLong });
    throw fail.badRequest();
  }
}

/** 422 image_field: a file was sent, but under another field name than `field`. */
function imageFieldError(field: string) {
  return fail.invalid('image_field', field, ERROR_MESSAGES.image_field.replace('{{field}}', field), {
    field,
  });
}
