import { Worker } from 'node:worker_threads';
import { type ImageFormat, type SanitizedImage, sanitizeImage } from './image';
import { ImageError } from './image-error';

// Set by the build (build/build.mjs) to the bundled source of image-worker-entry.ts.
declare const __IMAGE_WORKER_SOURCE__: string | undefined;

let source: string | null = null;

/** The worker's code: bundled in at build time, or compiled from the TypeScript when run from source. */
function workerSource(): string {
  if (source) return source;
  if (typeof __IMAGE_WORKER_SOURCE__ === 'string') {
    source = __IMAGE_WORKER_SOURCE__;
    return source;
  }
  // running from source (tests, tools): esbuild is a dev dependency there; the name is kept out
  // of the bundler's sight so the built server never carries esbuild
  const name = 'esbuild';
  const esbuild: typeof import('esbuild') = require(name);
  const out = esbuild.buildSync({
    entryPoints: [`${__dirname}/image-worker-entry.ts`],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    write: false,
  });
  source = out.outputFiles[0].text;
  return source;
}

interface Pending {
  resolve(image: SanitizedImage): void;
  reject(err: Error): void;
}

type Reply = { id: number; image: SanitizedImage } | { id: number; error: ImageError['reason'] };

let worker: Worker | null = null;
let nextId = 1;
const pending = new Map<number, Pending>();

function failAll(err: Error) {
  for (const p of pending.values()) p.reject(err);
  pending.clear();
}

function getWorker(): Worker {
  if (worker) return worker;
  const w = new Worker(workerSource(), { eval: true, resourceLimits: { maxOldGenerationSizeMb: 1536 } });
  w.unref();
  w.on('message', (reply: Reply) => {
    const p = pending.get(reply.id);
    if (!p) return;
    pending.delete(reply.id);
    if ('error' in reply) p.reject(new ImageError(reply.error));
    else p.resolve({ ...reply.image, bytes: Buffer.from(reply.image.bytes) });
  });
  // a crash (out of memory on a hostile file, say) refuses what was queued; the next call starts afresh
  const reset = () => {
    if (worker === w) worker = null;
    failAll(new ImageError('unreadable'));
  };
  w.on('error', reset);
  w.on('exit', reset);
  worker = w;
  return w;
}

/**
 * sanitizeImage in a worker thread: decoding a large JPEG in pure JavaScript takes seconds,
 * and on the main thread every other request would wait for it. One worker takes the images
 * one after another, leaving the other core to the server.
 */
export function sanitizeImageOffThread(
  bytes: Uint8Array,
  options: { allow: readonly ImageFormat[]; maxPixels?: number },
): Promise<SanitizedImage> {
  if (process.env.TASKREWARD_IMAGE_WORKER === '0') {
    return Promise.resolve().then(() => sanitizeImage(bytes, options));
  }
  return new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, { resolve, reject });
    const copy = new Uint8Array(bytes);
    getWorker().postMessage({ id, bytes: copy, allow: [...options.allow], maxPixels: options.maxPixels }, [
      copy.buffer,
    ]);
  });
}

/** Stops the worker (tests, shutdown). */
export async function stopImageWorker(): Promise<void> {
  const w = worker;
  worker = null;
  if (w) await w.terminate();
}
