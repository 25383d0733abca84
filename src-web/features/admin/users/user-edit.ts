import { checkAdminUserUpdate } from '@contract/admin';
import type { Role, UserStatus } from '@contract/constants';
import { kurusToTl } from '@contract/money';

/** The user edit modal's and the detail form's values, as the inputs hold them. */
export interface UserEditValues {
  name: string;
  email: string;
  status: UserStatus;
  banReason: string;
  /** TL as typed: "12.5" or "12,5" */
  balance: string;
  role: Role;
  /** a new password; '' keeps the current one */
  password: string;
}

/** The body of PUT /api/admin/users/{id}: money in TL. */
export interface UserEditBody {
  name: string;
  email: string;
  status: UserStatus;
  role?: Role;
  banReason?: string;
  balance?: number;
  password?: string;
}

/** A refusal: the field it belongs to, and either a message key of the screen or a shared field text. */
export interface UserEditProblem {
  field: keyof UserEditValues;
  /** a key of the adminLists namespace, or null when `message` is a shared field message */
  key: 'userEditNameRequired' | 'userEditBanReasonRequired' | 'balanceInvalid' | null;
  message: string;
}

/**
 * The statuses of the detail's edit form. The spec offers only active and banned there; a
 * suspended user keeps "suspended" in the list, so that a save does not lift it silently.
 */
export function detailStatuses(current: UserStatus): UserStatus[] {
  return current === 'suspended' ? ['active', 'suspended', 'banned'] : ['active', 'banned'];
}

export function userEditValues(user: {
  name: string;
  email: string;
  status: UserStatus;
  banReason: string | null;
  balance: number;
  role: Role;
}): UserEditValues {
  return {
    name: user.name,
    email: user.email,
    status: user.status,
    banReason: user.banReason ?? '',
    balance: user.balance.toFixed(2),
    role: user.role,
    password: '',
  };
}

/** "12,50" or " 12.5 " as a number; NaN for anything else (blank included). */
export function parseTl(text: string): number {
  const clean = text.trim().replace(',', '.');
  if (!/^-?\d+(\.\d+)?$/.test(clean)) return Number.NaN;
  return Number(clean);
}

const PROBLEM_KEYS = {
  name_email_required: 'userEditNameRequired',
  ban_reason_required: 'userEditBanReasonRequired',
  invalid_amount: 'balanceInvalid',
} as const;

/**
 * Checks the edit with the contract's rules (the server's own) and builds the body. The balance
 * is sent only when it was changed, so a reward paid while the form was open is not undone;
 * the role only when the form has one; a ban reason only with a ban.
 */
export function checkUserEdit(
  values: UserEditValues,
  initial: UserEditValues,
  options: { withRole: boolean; withPassword: boolean },
): { ok: true; body: UserEditBody } | { ok: false; problem: UserEditProblem } {
  const balanceChanged = values.balance.trim() !== initial.balance.trim();
  const balance = parseTl(values.balance);
  const candidate = {
    name: values.name,
    email: values.email,
    status: values.status,
    banReason: values.status === 'banned' ? values.banReason : undefined,
    ...(balanceChanged ? { balance: Number.isFinite(balance) ? balance : values.balance } : {}),
    ...(options.withRole ? { role: values.role } : {}),
    ...(options.withPassword && values.password ? { password: values.password } : {}),
  };
  const checked = checkAdminUserUpdate(candidate);
  if (!checked.ok) {
    const { code, field, message } = checked.problem;
    const key = code in PROBLEM_KEYS ? PROBLEM_KEYS[code as keyof typeof PROBLEM_KEYS] : null;
    const known: (keyof UserEditValues)[] = ['name', 'email', 'status', 'banReason', 'balance', 'role'];
    const inForm = known.find((k) => k === field) ?? 'password';
    return { ok: false, problem: { field: inForm, key, message } };
  }
  const v = checked.value;
  const body: UserEditBody = { name: v.name, email: v.email, status: values.status };
  if (options.withRole && v.role) body.role = v.role;
  if (values.status === 'banned' && v.banReason) body.banReason = v.banReason;
  if (v.balance !== undefined) body.balance = kurusToTl(v.balance);
  if (v.password) body.password = v.password;
  return { ok: true, body };
}
