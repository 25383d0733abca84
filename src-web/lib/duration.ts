import type { TFunction } from 'i18next';

/**
 * Minutes as people say them, in the largest whole units: 1440 -> "1 gün", 120 -> "2 saat",
 * 90 -> "1 saat 30 dakika", 45 -> "45 dakika" (the words from `common:duration`).
 */
export function humanDuration(t: TFunction, minutes: number): string {
  const whole = Math.max(0, Math.round(minutes));
  const days = Math.floor(whole / 1440);
  const hours = Math.floor((whole % 1440) / 60);
  const mins = whole % 60;
  const parts: string[] = [];
  if (days) parts.push(t('common:duration.days', { count: days }));
  if (hours) parts.push(t('common:duration.hours', { count: hours }));
  if (mins || parts.length === 0) parts.push(t('common:duration.minutes', { count: mins }));
  return parts.join(' ');
}
