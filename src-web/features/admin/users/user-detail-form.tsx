import type { AdminUserDetailDto } from '@contract/admin';
import { useTranslation } from 'react-i18next';
import { useIsSelf } from '../../../lib/auth';
import { useUserEdit } from './use-user-edit';
import { detailStatuses } from './user-edit';
import { UserEditFields } from './user-edit-fields';

const OPTIONS = { withRole: false, withPassword: false };
const MESSAGES = { success: 'userDetailUserUpdateSuccess', error: 'userDetailUserUpdateError' };

/** The detail's edit form: name, email, balance and status (with the ban reason when banned). */
export function UserDetailForm({ user, onDone }: { user: AdminUserDetailDto; onDone(): void }) {
  const { t } = useTranslation('adminLists');
  const isSelf = useIsSelf();
  const form = useUserEdit(user, OPTIONS, MESSAGES, onDone);
  return (
    <form className="card al-detail-form" onSubmit={form.submit} noValidate data-testid="user-detail-form">
      <UserEditFields
        prefix="detail-edit"
        ownAccount={isSelf(user._id)}
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
