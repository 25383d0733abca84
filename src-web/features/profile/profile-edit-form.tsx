import { PROFILE_LIMITS, updateProfileSchema } from '@contract/profile';
import type { UserDto } from '@contract/types';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Field } from '../../components/field';
import { ApiError, request } from '../../lib/api';
import { useAuth } from '../../lib/auth';
import { errorText, fieldTexts } from '../../lib/errors';
import { useForm } from '../../lib/use-form';
import { type ChosenPhoto, PhotoPicker } from './photo-picker';

/**
 * Name, new password (optional), phone, address, bio and photo. Sent as JSON, or as multipart
 * with `profileImage` when a photo was chosen; the reply updates the cached user.
 */
export function ProfileEditForm({
  user,
  onSaved,
  onFailed,
}: {
  user: UserDto;
  onSaved(): void;
  onFailed(message: string): void;
}) {
  const { t } = useTranslation(['profile', 'common']);
  const { setUser, signIn } = useAuth();
  const form = useForm(updateProfileSchema, {
    name: user.name,
    password: '',
    currentPassword: '',
    phone: user.phone ?? '',
    address: user.address ?? '',
    bio: user.bio ?? '',
  });
  const [photo, setPhoto] = useState<ChosenPhoto | null>(null);
  const [busy, setBusy] = useState(false);
  const fields = fieldTexts(t, form.errors);

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (busy || !form.validate()) return;
    setBusy(true);
    try {
      // the current password goes only with a new one
      const values = form.values.password ? form.values : { ...form.values, currentPassword: '' };
      let options: { method: string; body?: typeof values; form?: FormData };
      if (photo) {
        const data = new FormData();
        for (const [key, value] of Object.entries(values)) data.append(key, value);
        data.append('profileImage', photo.file);
        options = { method: 'PUT', form: data };
      } else options = { method: 'PUT', body: values };
      const reply = await request<{ data: UserDto; token?: string }>('/users/me', options);
      // a new password ended every other session; this one goes on with the fresh token
      if (reply.token) signIn(reply.token, { ...user, ...reply.data });
      else setUser((old) => ({ ...old, ...reply.data }));
      onSaved();
    } catch (err) {
      if (err instanceof ApiError && Object.keys(err.errors).length > 0) form.setErrors(err.errors);
      const reason = err instanceof ApiError && err.code !== 'validation_error' ? errorText(t, err) : '';
      onFailed(reason ? `${t('profilePageUpdateError')} ${reason}` : t('profilePageUpdateError'));
    } finally {
      setBusy(false);
    }
  };

  const text = (key: 'name' | 'phone' | 'address', type = 'text', max?: number) => (
    <Field id={`profile-${key}`} label={t(`form.${key}`)} error={fields[key]}>
      <input
        id={`profile-${key}`}
        type={type}
        value={form.values[key]}
        maxLength={max}
        autoComplete={key === 'name' ? 'name' : key === 'phone' ? 'tel' : 'street-address'}
        onChange={(e) => form.set(key, e.target.value)}
        aria-invalid={!!fields[key]}
      />
    </Field>
  );

  return (
    <form className="profile-edit-form" onSubmit={submit} noValidate>
      {text('name', 'text', 100)}
      <Field id="profile-password" label={t('form.password')} error={fields.password}>
        <input
          id="profile-password"
          type="password"
          autoComplete="new-password"
          value={form.values.password}
          onChange={(e) => form.set('password', e.target.value)}
          aria-invalid={!!fields.password}
          aria-describedby="profile-password-hint"
        />
        <p className="profile-hint muted" id="profile-password-hint">
          {t('form.passwordHint')}
        </p>
      </Field>
      {form.values.password && (
        <Field id="profile-current-password" label={t('form.currentPassword')} error={fields.currentPassword}>
          <input
            id="profile-current-password"
            type="password"
            autoComplete="current-password"
            value={form.values.currentPassword}
            onChange={(e) => form.set('currentPassword', e.target.value)}
            aria-invalid={!!fields.currentPassword}
            aria-describedby="profile-current-password-hint"
          />
          <p className="profile-hint muted" id="profile-current-password-hint">
            {t('form.currentPasswordHint')}
          </p>
        </Field>
      )}
      {text('phone', 'tel', PROFILE_LIMITS.phone)}
      {text('address', 'text', PROFILE_LIMITS.address)}
      <Field id="profile-bio" label={t('form.bio')} error={fields.bio}>
        <textarea
          id="profile-bio"
          rows={3}
          maxLength={PROFILE_LIMITS.bio}
          value={form.values.bio}
          onChange={(e) => form.set('bio', e.target.value)}
          aria-invalid={!!fields.bio}
        />
      </Field>
      <PhotoPicker name={form.values.name} current={user.profileImage} onChange={setPhoto} disabled={busy} />
      {fields._ && (
        <p className="field-error" role="alert">
          {fields._}
        </p>
      )}
      <button className="btn btn-primary" type="submit" disabled={busy}>
        {busy ? t('form.saving') : t('form.save')}
      </button>
    </form>
  );
}
