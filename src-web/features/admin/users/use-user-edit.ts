import type { AdminUserDetailDto } from '@contract/admin';
import type { Role, UserStatus } from '@contract/constants';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminKeys, updateUser } from '../../../components/admin/admin-api';
import { serverErrorText } from '../../../components/admin/server-error';
import { useToast } from '../../../components/toast';
import { ApiError } from '../../../lib/api';
import { errorText, fieldTexts } from '../../../lib/errors';
import { checkUserEdit, type UserEditBody, type UserEditValues, userEditValues } from './user-edit';

export type UserEditErrors = Partial<Record<keyof UserEditValues, string>>;

export interface EditableUser {
  _id: string;
  name: string;
  email: string;
  status: UserStatus;
  banReason: string | null;
  balance: number;
  role: Role;
}

const FORM_FIELDS: (keyof UserEditValues)[] = [
  'name',
  'email',
  'status',
  'banReason',
  'balance',
  'role',
  'password',
];

/**
 * The state of a user edit form (the list's modal and the detail's form): values, field errors,
 * the server's refusal, and the save. Messages are keys of the adminLists namespace.
 */
export function useUserEdit(
  user: EditableUser,
  options: { withRole: boolean; withPassword: boolean },
  messages: { success: string; error: string },
  onSaved: (user: AdminUserDetailDto) => void,
) {
  const { t } = useTranslation('adminLists');
  const toast = useToast();
  const queryClient = useQueryClient();
  const [initial] = useState(() => userEditValues(user));
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<UserEditErrors>({});
  const [failure, setFailure] = useState<string | null>(null);

  const save = useMutation({
    mutationFn: (body: UserEditBody) => updateUser(user._id, body),
    onSuccess: (saved) => {
      queryClient.setQueryData(adminKeys.user(saved._id), saved);
      void queryClient.invalidateQueries({ queryKey: adminKeys.all });
      toast.success(t(messages.success));
      onSaved(saved);
    },
    onError: (err) => {
      const text = serverErrorText(t, err, `adminLists:${messages.error}`);
      if (err instanceof ApiError && err.code === 'email_in_use') {
        setErrors({ email: errorText(t, err) });
        return;
      }
      if (err instanceof ApiError && Object.keys(err.errors).length > 0) {
        const shared = fieldTexts(t, err.errors);
        const next: UserEditErrors = {};
        for (const [field, message] of Object.entries(err.errors)) {
          const inForm = FORM_FIELDS.find((f) => f === field);
          if (!inForm) continue;
          next[inForm] = err.code === 'validation_error' ? (shared[field] ?? message) : text;
        }
        if (Object.keys(next).length > 0) {
          setErrors(next);
          return;
        }
      }
      setFailure(text);
    },
  });

  const set = <K extends keyof UserEditValues>(key: K, value: UserEditValues[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    setErrors((e) => (key in e ? { ...e, [key]: undefined } : e));
    setFailure(null);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const checked = checkUserEdit(values, initial, options);
    if (!checked.ok) {
      const { field, key, message } = checked.problem;
      setErrors({ [field]: key ? t(key) : (fieldTexts(t, { [field]: message })[field] ?? message) });
      return;
    }
    setErrors({});
    save.mutate(checked.body);
  };

  return { values, set, errors, failure, submit, saving: save.isPending };
}
