import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { resources } from '../locales';
import { humanDuration } from './duration';

const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.init({ resources, lng: 'tr', fallbackLng: 'tr', interpolation: { escapeValue: false } });
});

describe('durations in words', () => {
  it.each([
    [1440, 'tr', '1 gün'],
    [120, 'tr', '2 saat'],
    [90, 'tr', '1 saat 30 dakika'],
    [45, 'tr', '45 dakika'],
    [10_080, 'tr', '7 gün'],
    [1440, 'en', '1 day'],
    [150, 'en', '2 hours 30 minutes'],
    [1, 'en', '1 minute'],
  ])('%i minutes in %s: %s', async (minutes, lng, text) => {
    await i18n.changeLanguage(lng);
    expect(humanDuration(i18n.t, minutes)).toBe(text);
  });
});
