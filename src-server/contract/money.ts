/**
 * The one place where lira (API, two decimals) and kuruş (database, integers) meet.
 * Anything finer than a kuruş, negative, non-finite or not a number is refused (null).
 */
export function tlToKurus(value: unknown): number | null {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) return null;
  if (Object.is(value, -0)) return null;
  // String() gives the shortest decimal that reads back as this double ("0.29", not
  // 0.29 * 100 = 28.999999999999996), so the digits are exact at every magnitude; a
  // tolerance on value * 100 either refuses 0.29 or, for large values, lets 1000000.001 in.
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(String(value));
  if (!match) return null;
  const kurus = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return Number.isSafeInteger(kurus) ? kurus : null;
}

/** Kuruş to a lira number for the API (12.5 for 1250). */
export function kurusToTl(kurus: number): number {
  return kurus / 100;
}
