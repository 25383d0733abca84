import { MIN_PASSWORD_LENGTH } from './constants';

// Apart from the schemas (schemas.ts), so pages that only translate a server's field messages
// do not load zod.
export const FIELD_MESSAGES = {
  nameRequired: 'Name is required',
  emailRequired: 'Email is required',
  emailInvalid: 'Please enter a valid email address',
  passwordRequired: 'Password is required',
  passwordTooShort: `Password must be at least ${MIN_PASSWORD_LENGTH} characters`,
  passwordsDoNotMatch: 'Passwords do not match',
  termsRequired: 'You must accept the terms of use',
  tooLong: 'This value is too long',
  invalidValue: 'This value is invalid',
  currentPasswordRequired: 'Please enter your current password',
  currentPasswordWrong: 'Your current password is not correct',
  dateRangeReversed: 'The end date is before the start date',
  bulkIdsRange: 'Choose between 1 and 500 items',
  codeInvalid: 'Enter the 6-digit code',
  codeRequired: 'Enter the code from your authenticator app or a recovery code',
} as const;

export type FieldMessageKey = keyof typeof FIELD_MESSAGES;

/** The locale key (under `fields.`) for an English field message, or undefined. */
export function fieldMessageKey(message: string): FieldMessageKey | undefined {
  return (Object.keys(FIELD_MESSAGES) as FieldMessageKey[]).find((k) => FIELD_MESSAGES[k] === message);
}
