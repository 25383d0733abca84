// Runs inside the image worker thread: decodes and re-encodes images off the main thread.
import { parentPort } from 'node:worker_threads';
import { type ImageFormat, sanitizeImage } from './image';
import { ImageError } from './image-error';

interface Job {
  id: number;
  bytes: Uint8Array;
  allow: ImageFormat[];
  maxPixels?: number;
}

parentPort?.on('message', (job: Job) => {
  try {
    const image = sanitizeImage(job.bytes, { allow: job.allow, maxPixels: job.maxPixels });
    const bytes = new Uint8Array(image.bytes);
    parentPort?.postMessage({ id: job.id, image: { ...image, bytes } }, [bytes.buffer]);
  } catch (err) {
    const reason = err instanceof ImageError ? err.reason : 'unreadable';
    parentPort?.postMessage({ id: job.id, error: reason });
  }
});
