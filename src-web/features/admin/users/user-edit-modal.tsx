import { USER_STATUSES } from '@contract/constants';
import { useTranslation } from 'react-i18next';
import { Modal } from '../../../components/modal';
import { useIsSelf } from '../../../lib/auth';
import { type EditableUser, useUserEdit } from './use-user-edit';
import { UserEditFields } from './user-edit-fields';

const OPTIONS = { withRole: true, withPassword: true };
const MESSAGES = { success: 'userUpdateSuccess', error: 'userUpdateError' };

/** The user list's edit modal: every status, the role and a new password. */
export function UserEditModal({ user, onClose }: { user: EditableUser | null; onClose(): void }) {
  const { t } = useTranslation('adminLists');
  return (
    <Modal open={user !== null} title={t('editForm.title')} onClose={onClose} closeOnBackdrop={false}>
      {user && <EditForm key={user._id} user={user} onClose={onClose} />}
    </Modal>
  );
}

function EditForm({ user, onClose }: { user: EditableUser; onClose(): void }) {
  const { t } = useTranslation('adminLists');
  const isSelf = useIsSelf();
  const form = useUserEdit(user, OPTIONS, MESSAGES, onClose);
  return (
    <form onSubmit={form.submit} noValidate data-testid="user-edit-form">
      <UserEditFields
        prefix="user-edit"
        ownAccount={isSelf(user._id)}
        values={form.values}
        errors={form.errors}
        set={form.set}
        statuses={USER_STATUSES}
        {...OPTIONS}
      />
      {form.failure && (
        <p className="notice notice-error" role="alert" data-testid="user-edit-failure">
          {form.failure}
        </p>
      )}
      <div className="form-actions">
        <button type="button" className="btn btn-outline" onClick={onClose}>
          {t('common:actions.cancel')}
        </button>
        <button type="submit" className="btn btn-primary" disabled={form.saving} data-testid="user-edit-save">
          {form.saving ? t('editForm.saving') : t('editForm.save')}
        </button>
      </div>
    </form>
  );
}
