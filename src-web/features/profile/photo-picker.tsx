import { MAX_PROOF_BYTES } from '@contract/constants';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Avatar } from '../../components/avatar';
import { Field } from '../../components/field';

/** What the server re-encodes and keeps: PNG and JPEG (Files). */
const IMAGE_TYPES = ['image/png', 'image/jpeg'];

function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(typeof reader.result === 'string' ? reader.result : '');
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

export interface ChosenPhoto {
  file: File;
  /** the file read as a data URL, for the preview */
  preview: string;
}

/** The photo field: image files only, previewed from a data URL before it is sent. */
export function PhotoPicker({
  name,
  current,
  onChange,
  disabled,
}: {
  name: string;
  current: string | null;
  onChange(photo: ChosenPhoto | null): void;
  disabled?: boolean;
}) {
  const { t } = useTranslation(['profile', 'errors']);
  const [preview, setPreview] = useState<string | null>(null);
  const [error, setError] = useState<string | undefined>();
  const [chosen, setChosen] = useState<string | null>(null);

  const refuse = (input: HTMLInputElement, message: string) => {
    input.value = '';
    setPreview(null);
    onChange(null);
    setError(message);
  };

  const choose = async (input: HTMLInputElement) => {
    setError(undefined);
    const file = input.files?.[0];
    if (!file) {
      setPreview(null);
      onChange(null);
      return;
    }
    if (!IMAGE_TYPES.includes(file.type)) return refuse(input, t('errors:file_type'));
    if (file.size > MAX_PROOF_BYTES) return refuse(input, t('errors:file_too_large'));
    try {
      const dataUrl = await readAsDataUrl(file);
      setPreview(dataUrl);
      onChange({ file, preview: dataUrl });
    } catch {
      refuse(input, t('errors:image_unreadable'));
    }
  };

  return (
    <Field id="profile-photo" label={t('form.photo')} error={error}>
      <div className="photo-picker">
        {preview ? (
          <img className="avatar" src={preview} alt={t('form.photoPreview')} width={56} height={56} />
        ) : (
          <Avatar name={name} image={current} size={56} />
        )}
        <div className="photo-picker-controls">
          <input
            id="profile-photo"
            className="sr-only file-input"
            type="file"
            accept={IMAGE_TYPES.join(',')}
            disabled={disabled}
            aria-describedby="profile-photo-hint profile-photo-name"
            onChange={(e) => {
              setChosen(e.currentTarget.files?.[0]?.name ?? null);
              void choose(e.currentTarget);
            }}
          />
          <div className="file-pick">
            <label htmlFor="profile-photo" className="btn btn-outline btn-sm">
              {t('form.choosePhoto')}
            </label>
            <span id="profile-photo-name" className="muted small file-name">
              {chosen ?? t('form.noPhotoChosen')}
            </span>
          </div>
        </div>
      </div>
      <p className="profile-hint muted" id="profile-photo-hint">
        {t('form.photoHint')}
      </p>
    </Field>
  );
}
