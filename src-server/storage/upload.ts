import { createWriteStream, type WriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import busboy from 'busboy';
import type { FileStore } from './file-store';

/** Why an upload was refused while it streamed in. */
export class UploadError extends Error {
  constructor(readonly reason: 'too_large' | 'type' | 'malformed' | 'field_too_long') {
    super(`upload refused: ${reason}`);
  }
}

/** A file part staged in the data folder's temp folder. */
export interface ReceivedFile {
  path: string;
  size: number;
  filename: string;
  mimeType: string;
}

export interface ReceivedUpload {
  /** the text fields, first value of each name */
  fields: Record<string, string>;
  /** null when no file part of that name came, or it was empty (a form sent without a file) */
  file: ReceivedFile | null;
  /** names of the file parts with content sent under another name than fileField (skipped) */
  strayFiles: string[];
  /** removes the staged file; call it in a finally */
  discard(): Promise<void>;
}

export interface UploadOptions {
  /** the name of the one file part taken; other file parts are skipped */
  fileField: string;
  /** more than this many bytes is refused as soon as the next byte arrives */
  maxFileBytes: number;
  /** judges the file's first bytes (up to 16) as soon as they arrive; false refuses it at once */
  accept?: (head: Uint8Array) => boolean;
  maxFieldBytes?: number;
}

const HEAD_BYTES = 16;

function closed(stream: WriteStream): Promise<void> {
  if (stream.closed) return Promise.resolve();
  return new Promise((resolve) => stream.once('close', () => resolve()));
}

/**
 * Streams a multipart body into the temp folder with hard limits: the file is refused while
 * it arrives (too large, wrong first bytes), whatever Content-Length claimed, and a refused
 * upload leaves nothing on disk. The rest of a refused body is read and thrown away.
 */
export function receiveUpload(
  store: FileStore,
  body: ReadableStream<Uint8Array> | null,
  contentType: string | undefined,
  options: UploadOptions,
): Promise<ReceivedUpload> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      if (!body || !contentType) throw new Error('no multipart body');
      parser = busboy({
        headers: { 'content-type': contentType },
        // busboy signals its limit on reaching it: one byte more tells "too large" from "exactly the limit"
        limits: {
          fileSize: options.maxFileBytes + 1,
          files: 4,
          fields: 20,
          parts: 30,
          headerPairs: 20,
          fieldSize: options.maxFieldBytes ?? 16 * 1024,
        },
      });
    } catch {
      reject(new UploadError('malformed'));
      return;
    }
    const source = Readable.fromWeb(body as WebReadableStream<Uint8Array>);
    const fields: Record<string, string> = {};
    let file: ReceivedFile | null = null;
    const strayFiles = new Set<string>();
    let writer: WriteStream | null = null;
    let written: Promise<void> = Promise.resolve();
    let settled = false;

    const discard = async () => {
      if (writer) await closed(writer);
      if (file) await store.discardTemp(file.path);
    };
    const abort = (err: Error) => {
      if (settled) return;
      settled = true;
      source.unpipe(parser);
      // the rest of the body is read and thrown away (the server caps how much), not cancelled:
      // cancelling resets the connection and the client would never read the refusal
      source.on('error', () => undefined);
      source.resume();
      writer?.destroy();
      // busboy is mid-callback here (a 'limit' or 'data' event): destroy it once that returns
      setImmediate(() => parser.destroy());
      discard().then(
        () => reject(err),
        () => reject(err),
      );
    };

    parser.on('file', (name, stream, info) => {
      // a part cut short by a refusal errors out; the refusal already answered
      stream.on('error', () => undefined);
      if (settled || name !== options.fileField || file) {
        // a file under another name is skipped but remembered, so the refusal can name the field
        if (!settled && name !== options.fileField) {
          stream.once('data', () => strayFiles.add(name));
        }
        stream.resume();
        return;
      }
      const staged: ReceivedFile = {
        path: store.tempPath(),
        size: 0,
        filename: info.filename ?? '',
        mimeType: info.mimeType,
      };
      file = staged;
      const out = createWriteStream(staged.path, { flags: 'wx', mode: 0o600 });
      writer = out;
      written = new Promise((done, failed) => {
        out.once('finish', done);
        out.once('error', failed);
      });
      written.catch(() => undefined);
      let head = Buffer.alloc(0);
      let judged = !options.accept;
      const judge = () => {
        judged = true;
        if (options.accept && !options.accept(head)) abort(new UploadError('type'));
      };
      stream.on('data', (chunk: Buffer) => {
        staged.size += chunk.length;
        if (!judged) {
          head = Buffer.concat([head, chunk.subarray(0, HEAD_BYTES)]).subarray(0, HEAD_BYTES);
          if (head.length >= HEAD_BYTES) judge();
        }
      });
      stream.on('end', () => {
        if (!judged && staged.size > 0) judge();
      });
      stream.on('limit', () => abort(new UploadError('too_large')));
      stream.pipe(out);
    });
    parser.on('field', (name, value, info) => {
      if (info.nameTruncated || info.valueTruncated) abort(new UploadError('field_too_long'));
      // browsers send form text with CRLF line breaks: stored text uses LF like JSON bodies
      else if (!(name in fields)) fields[name] = value.replace(/\r\n?/g, '\n');
    });
    parser.on('error', () => abort(new UploadError('malformed')));
    source.on('error', () => abort(new UploadError('malformed')));
    parser.on('close', () => {
      if (settled) return;
      written.then(
        async () => {
          if (settled) return;
          settled = true;
          if (file && file.size === 0) {
            await discard();
            file = null;
          }
          const staged = file;
          resolve({
            fields,
            file: staged,
            strayFiles: [...strayFiles],
            discard,
          });
        },
        (err: Error) => abort(err),
      );
    });
    source.pipe(parser);
  });
}
