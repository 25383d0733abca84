import { useTranslation } from 'react-i18next';
import type { AdminUserDetailDto } from '../../../src-server/contract/admin';
import type { UserStatus } from '../../../src-server/contract/constants';
import { useUserEdit } from './use-user-edit';
import { UserEditFields } from './user-edit-fields';

const OPTIONS = { withRole: false, withPassword: false };
const MESSAGES = { success: 'userDetailUserUpdateSuccess', error: 'userDetailUserUpdateError' };

/**
 * The detail's edit form: name, email, balance and status. The spec offers only active and
 * banned here; a suspended user keeps "suspended" in the list so a save does not lift it silently.
 */
export function detailStatuses(current: UserStatus): UserStatus[] {
  return current === 'suspended' ? ['active', 'suspended', 'banned'] : ['active', 'banned'];
}

export function UserDetailForm({ user, onDone }: { user: AdminUserDetailDto; onDone(): void }) {
  const { t } = useTranslation('adminReview');
  const form = useUserEdit(user, OPTIONS, MESSAGES, onDone);
  return (
    <form className="card ar-detail-form" onSubmit={form.submit} noValidate data-testid="user-detail-form">
      <UserEditFields
        prefix="detail-edit"
        values={form.values}
        errors={form.errors}
        set={form.set}
        statuses={detailStatuses(user.status)}
        {...OPTIONS}
      />
      {form.failure && (
        <p className="notice notice-error" role="alert" data-testid="user-detail-failure">
          {form.failure}
        </p>
      )}
      <div className="form-actions">
        <button type="button" className="btn btn-outline" onClick={onDone}>
          {t('common:actions.cancel')}
        </button>
        <button
          type="submit"
          className="btn btn-primary"
          disabled={form.saving}
          data-testid="user-detail-save"
        >
          {form.saving ? t('editForm.saving') : t('editForm.save')}
        </button>
      </div>
    </form>
  );
}
