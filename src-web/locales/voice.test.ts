import { describe, expect, it } from 'vitest';
import { resources } from './index';

describe('one voice across the app', () => {
  it.each(['tr', 'en'] as const)(
    'names each rejection reason alike for the worker and the admin (%s)',
    (lang) => {
      expect(resources[lang].adminReview.rejectionReasons).toEqual(
        resources[lang].submissions.rejectionReasons,
      );
    },
  );
});
