import { randomBytes } from 'node:crypto';

/** An opaque, non-sequential id (96 random bits, hex). */
export function newId(): string {
  return randomBytes(12).toString('hex');
}

/** The current time as the ISO text the tables store. */
export function nowIso(clock: () => Date = () => new Date()): string {
  return clock().toISOString();
}
