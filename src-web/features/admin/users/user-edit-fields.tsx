import { ROLES, type Role, type UserStatus } from '@contract/constants';
import { useTranslation } from 'react-i18next';
import { Field } from '../../../components/field';
import type { UserEditErrors } from './use-user-edit';
import type { UserEditValues } from './user-edit';

const described = (id: string, error: string | undefined, hint?: boolean) => ({
  id,
  'aria-invalid': error ? true : undefined,
  'aria-describedby':
    [error ? `${id}-error` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ') || undefined,
});

/**
 * The inputs of a user edit: name, email, status (with the ban reason when banned), balance,
 * and on the list's modal the role and a new password.
 */
export function UserEditFields({
  prefix,
  values,
  errors,
  set,
  statuses,
  withRole,
  withPassword,
  ownAccount = false,
}: {
  prefix: string;
  values: UserEditValues;
  errors: UserEditErrors;
  set<K extends keyof UserEditValues>(key: K, value: UserEditValues[K]): void;
  statuses: readonly UserStatus[];
  withRole: boolean;
  withPassword: boolean;
  /** the signed-in admin's own account: another admin changes its balance */
  ownAccount?: boolean;
}) {
  const { t } = useTranslation('adminLists');
  const id = (name: string) => `${prefix}-${name}`;
  return (
    <div className="al-form-grid">
      <Field id={id('name')} label={t('editForm.name')} error={errors.name}>
        <input
          {...described(id('name'), errors.name)}
          value={values.name}
          onChange={(e) => set('name', e.target.value)}
          autoComplete="off"
          maxLength={100}
        />
      </Field>
      <Field id={id('email')} label={t('editForm.email')} error={errors.email}>
        <input
          {...described(id('email'), errors.email)}
          type="email"
          value={values.email}
          onChange={(e) => set('email', e.target.value)}
          autoComplete="off"
          maxLength={254}
        />
      </Field>
      <Field id={id('status')} label={t('editForm.status')} error={errors.status}>
        <select
          {...described(id('status'), errors.status)}
          value={values.status}
          onChange={(e) => set('status', statuses.find((s) => s === e.target.value) ?? values.status)}
        >
          {statuses.map((s) => (
            <option key={s} value={s}>
              {t(`userStatus.${s}`)}
            </option>
          ))}
        </select>
      </Field>
      <Field id={id('balance')} label={t('editForm.balance')} error={errors.balance}>
        <input
          {...described(id('balance'), errors.balance, true)}
          type="number"
          inputMode="decimal"
          min={0}
          step={0.01}
          value={values.balance}
          readOnly={ownAccount}
          onChange={(e) => set('balance', e.target.value)}
        />
        <small className="muted" id={`${id('balance')}-hint`}>
          {ownAccount ? t('editForm.ownBalanceHint') : t('editForm.balanceHint')}
        </small>
      </Field>
      {values.status === 'banned' && (
        <div className="al-span-all">
          <Field id={id('banReason')} label={t('editForm.banReason')} error={errors.banReason}>
            <textarea
              {...described(id('banReason'), errors.banReason, true)}
              rows={3}
              maxLength={500}
              value={values.banReason}
              onChange={(e) => set('banReason', e.target.value)}
            />
            <small className="muted" id={`${id('banReason')}-hint`}>
              {t('editForm.banReasonHint')}
            </small>
          </Field>
        </div>
      )}
      {withRole && (
        <Field id={id('role')} label={t('editForm.role')} error={errors.role}>
          <select
            {...described(id('role'), errors.role)}
            value={values.role}
            onChange={(e) => set('role', ROLES.find((r): r is Role => r === e.target.value) ?? values.role)}
          >
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {t(`roles.${r}`)}
              </option>
            ))}
          </select>
        </Field>
      )}
      {withPassword && (
        <Field id={id('password')} label={t('editForm.password')} error={errors.password}>
          <input
            {...described(id('password'), errors.password, true)}
            type="password"
            autoComplete="new-password"
            value={values.password}
            onChange={(e) => set('password', e.target.value)}
          />
          <small className="muted" id={`${id('password')}-hint`}>
            {t('editForm.passwordHint')}
          </small>
        </Field>
      )}
    </div>
  );
}
