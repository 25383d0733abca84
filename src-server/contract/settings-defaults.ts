import { DEFAULT_MINIMUM_PAYOUT_TL } from './constants';
import type { SettingsDto } from './types';

/** What GET /api/settings returns for every section or field an admin has not set. */
export const DEFAULT_SETTINGS: SettingsDto = {
  site: {
    name: 'TaskReward',
    description: {
      tr: 'Basit internet görevlerini tamamla, kanıtını yükle, ödülünü Türk lirası olarak kazan.',
      en: 'Complete simple internet tasks, upload your proof and earn rewards in Turkish lira.',
    },
    logo: null,
    favicon: null,
  },
  contact: { email: 'destek@taskreward.app', phone: '+90 850 000 00 00', address: 'İstanbul, Türkiye' },
  socialMedia: {
    facebook: 'https://facebook.com/taskreward',
    twitter: 'https://x.com/taskreward',
    instagram: 'https://instagram.com/taskreward',
    linkedin: 'https://linkedin.com/company/taskreward',
  },
  payment: {
    minimumPayout: DEFAULT_MINIMUM_PAYOUT_TL,
    methods: ['papara', 'iban'],
    requireVerifiedEmail: false,
  },
  review: { autoApproveDays: 0 },
  security: { requireAdminTwoFactor: false },
};
