/** True under `npm run test:faults` (FAULTS_FULL=1): the full-length runs. CI runs the reduced form. */
export const FULL = process.env.FAULTS_FULL === '1';

/** The full count under FAULTS_FULL=1, the reduced one otherwise. */
export function scaled(full: number, reduced: number): number {
  return FULL ? full : reduced;
}

/** A seed from FAULTS_SEED, or a fresh one; print it so a failing run can be replayed. */
export function seedFromEnv(): number {
  const fromEnv = Number.parseInt(process.env.FAULTS_SEED ?? '', 10);
  return Number.isFinite(fromEnv) ? fromEnv : Math.floor(Math.random() * 2 ** 31);
}

/** A small deterministic PRNG (mulberry32): the same seed gives the same run. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
