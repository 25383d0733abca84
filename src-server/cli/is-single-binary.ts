import * as sea from 'node:sea';

// A module of its own, importing nothing of the app: the malloc restart (tuned.ts) is also built
// on its own for the server's loader, which runs it before reading the server's bundle.

/** Whether this process is the single binary (Node's single executable application). */
export function isSingleBinary(): boolean {
  try {
    return sea.isSea();
  } catch {
    return false;
  }
}
