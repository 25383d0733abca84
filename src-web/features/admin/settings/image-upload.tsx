import { MAX_PROOF_BYTES } from '@contract/constants';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { actionError } from '../../../components/admin/action-error';
import { type SiteImage, useUploadSiteImage } from './settings-api';
import { useFlash } from './use-flash';

const ACCEPT: Record<SiteImage, string> = {
  logo: 'image/png,image/jpeg',
  favicon: 'image/png,image/jpeg,image/x-icon,image/vnd.microsoft.icon,.ico',
};

/** The logo or favicon: the current image, a preview of the chosen file, and its upload. */
export function ImageUpload({ field, current }: { field: SiteImage; current: string | null }) {
  const { t } = useTranslation('admin');
  const id = useId();
  const upload = useUploadSiteImage(field);
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [success, showSuccess] = useFlash();
  const [inputKey, setInputKey] = useState(0);

  useEffect(() => {
    if (!file) return;
    const url = URL.createObjectURL(file);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);

  const choose = (chosen: File | null) => {
    upload.reset();
    setProblem(null);
    setPreview(null);
    if (chosen && chosen.size > MAX_PROOF_BYTES) {
      setFile(null);
      setProblem(t('errors:file_too_large'));
      return;
    }
    setFile(chosen);
  };
  const send = () => {
    if (!file) return;
    upload.mutate(file, {
      onSuccess: () => {
        setFile(null);
        setPreview(null);
        setInputKey((k) => k + 1);
        showSuccess(t(`settings.general.${field}Uploaded`));
      },
    });
  };

  const shown = preview ?? current;
  const error =
    problem ?? (upload.isError ? actionError(t, upload.error, 'admin:settings.settingsUpdateFailed') : null);
  return (
    <div className={`image-upload image-upload-${field}`} data-testid={`upload-${field}`}>
      <p className="image-upload-label" id={`${id}-label`}>
        {t(`settings.general.${field}`)}
      </p>
      <div className="image-upload-row">
        <div className="image-upload-preview">
          {shown ? (
            <img
              src={shown}
              alt={t(preview ? 'settings.general.newPreview' : 'settings.general.currentImage')}
            />
          ) : (
            <span className="muted small">{t('settings.general.noImage')}</span>
          )}
        </div>
        <div className="image-upload-controls">
          {/* the native input is hidden: its own button and "no file" text follow the browser's language */}
          <input
            key={inputKey}
            id={`${id}-file`}
            className="sr-only file-input"
            type="file"
            accept={ACCEPT[field]}
            aria-describedby={`${id}-hint ${id}-name`}
            onChange={(e) => choose(e.target.files?.[0] ?? null)}
          />
          <div className="file-pick">
            <label htmlFor={`${id}-file`} className="btn btn-outline btn-sm">
              {t('settings.general.chooseFile')}
              <span className="sr-only"> ({t(`settings.general.${field}`)})</span>
            </label>
            <span id={`${id}-name`} className="muted small file-name">
              {file ? file.name : t('settings.general.noFile')}
            </span>
          </div>
          <p id={`${id}-hint`} className="muted small">
            {t(`settings.general.${field}Hint`)}
          </p>
          <button
            type="button"
            className="btn btn-outline btn-sm"
            disabled={!file || upload.isPending}
            onClick={send}
          >
            {upload.isPending ? t('settings.general.uploading') : t('settings.general.upload')}
          </button>
        </div>
      </div>
      {success && (
        <p className="notice notice-success" role="status">
          {success}
        </p>
      )}
      {error && (
        <p className="notice notice-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
