/**
 * The one place where lira (API, two decimals) and kuruş (database, integers) meet.
 * Anything finer than a kuruş, negative, non-finite or not a number is refused (null).
 */
export function tlToKurus(value: unknown): number | null {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) return null;
  if (Object.is(value, -0)) return null;
  const kurus = Math.round(value * 100);
  // 0.29 * 100 = 28.999999999999996: accept values within float noise of a whole kuruş
  if (Math.abs(kurus - value * 100) > 1e-6 * Math.max(1, value)) return null;
  if (!Number.isSafeInteger(kurus)) return null;
  return kurus;
}

/** Kuruş to a lira number for the API (12.5 for 1250). */
export function kurusToTl(kurus: number): number {
  return kurus / 100;
}
