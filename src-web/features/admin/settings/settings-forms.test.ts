import { DEFAULT_SETTINGS } from '@contract/settings-defaults';
import { describe, expect, it } from 'vitest';
import {
  accountPatch,
  accountValues,
  checkSettingsPatch,
  contactPatch,
  contactValues,
  formFieldErrors,
  generalPatch,
  generalValues,
  paymentPatch,
  paymentValues,
  settingsMessageKey,
} from './settings-forms';

const keys = (errors: Record<string, string>) =>
  Object.fromEntries(Object.entries(errors).map(([f, m]) => [f, settingsMessageKey(m)]));

describe('the settings forms', () => {
  it('round-trip the stored settings into patches the server accepts', () => {
    expect(checkSettingsPatch(generalPatch(generalValues(DEFAULT_SETTINGS)))).toEqual({});
    expect(checkSettingsPatch(contactPatch(contactValues(DEFAULT_SETTINGS)))).toEqual({});
    expect(paymentPatch(paymentValues(DEFAULT_SETTINGS))).toEqual({
      payment: { minimumPayout: 20, methods: ['papara', 'iban'] },
    });
  });

  it('sends the two account switches, each to its own group, without touching the payout fields', () => {
    const values = accountValues(DEFAULT_SETTINGS);
    expect(values).toEqual({ requireVerifiedEmail: false, requireAdminTwoFactor: false });
    const patch = accountPatch({ requireVerifiedEmail: true, requireAdminTwoFactor: true });
    expect(patch).toEqual({
      payment: { requireVerifiedEmail: true },
      security: { requireAdminTwoFactor: true },
    });
    expect(checkSettingsPatch(patch)).toEqual({});
  });

  it('requires a site name', () => {
    const patch = generalPatch({ ...generalValues(DEFAULT_SETTINGS), name: '  ' });
    expect(keys(checkSettingsPatch(patch))).toEqual({ name: 'admin:settings.errors.siteNameRequired' });
  });

  it('checks the contact email and the social links', () => {
    const patch = contactPatch({
      ...contactValues(DEFAULT_SETTINGS),
      email: 'not-an-email',
      instagram: 'instagram.com/x',
      linkedin: '',
    });
    expect(keys(checkSettingsPatch(patch))).toEqual({
      email: 'common:fields.emailInvalid',
      instagram: 'admin:settings.errors.invalidUrl',
    });
  });

  it('sends the minimum payout as a number and needs one payout method', () => {
    expect(paymentPatch({ minimumPayout: '12,5', methods: ['iban'] })).toEqual({
      payment: { minimumPayout: 12.5, methods: ['iban'] },
    });
    expect(keys(checkSettingsPatch(paymentPatch({ minimumPayout: '-5', methods: [] })))).toEqual({
      minimumPayout: 'admin:settings.errors.minimumPayoutInvalid',
      methods: 'admin:settings.errors.methodsRequired',
    });
    expect(keys(checkSettingsPatch(paymentPatch({ minimumPayout: '', methods: ['papara'] })))).toEqual({
      minimumPayout: 'admin:settings.errors.minimumPayoutInvalid',
    });
  });

  it("maps the server's dotted paths to the form's fields", () => {
    expect(
      formFieldErrors({ 'socialMedia.twitter': 'x', 'payment.methods.1': 'y', 'site.name': 'z' }),
    ).toEqual({ twitter: 'x', methods: 'y', name: 'z' });
  });
});
