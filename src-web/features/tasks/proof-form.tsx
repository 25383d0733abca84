import { MAX_SUBMISSION_DESCRIPTION } from '@contract/submissions';
import { type ChangeEvent, type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { UploadIcon } from '../../components/icons';
import { useToast } from '../../components/toast';
import { refuseProof } from './proof-check';
import { actionError, sendProof } from './tasks-api';

function sizeText(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;
}

/**
 * The proof upload: a description and one PNG or JPEG image. The file's type, first bytes and
 * size are checked as soon as it is chosen; the send button waits for an accepted file.
 */
export function ProofForm({ taskId, onSent }: { taskId: string; onSent(): void }) {
  const { t } = useTranslation(['tasks', 'errors']);
  const toast = useToast();
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [description, setDescription] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!file) return setPreview(null);
    const url = URL.createObjectURL(file);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);

  const choose = async (e: ChangeEvent<HTMLInputElement>) => {
    const input = e.currentTarget;
    const chosen = input.files?.[0] ?? null;
    setError(null);
    if (!chosen) return setFile(null);
    const refusal = await refuseProof(chosen);
    if (refusal) {
      input.value = '';
      setFile(null);
      setError(t(`errors:${refusal}`));
      return;
    }
    setFile(chosen);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!file) return setError(t('errors:proof_required'));
    setBusy(true);
    setError(null);
    try {
      await sendProof(taskId, { file, description: description.trim() });
      toast.success(t('proof.success'));
      onSent();
    } catch (err) {
      setError(actionError(t, err, 'tasks:proof.error'));
      setBusy(false);
    }
  };

  return (
    <section
      className="card proof-form"
      id="proof-form"
      aria-labelledby="proof-title"
      data-testid="proof-form"
    >
      <h2 id="proof-title" tabIndex={-1}>
        {t('proof.title')}
      </h2>
      <form onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor="proof-description">{t('proof.description')}</label>
          <textarea
            id="proof-description"
            rows={4}
            maxLength={MAX_SUBMISSION_DESCRIPTION}
            placeholder={t('proof.descriptionPlaceholder')}
            value={description}
            onChange={(e) => setDescription(e.target.value)}
          />
        </div>
        <div className={`field${error ? ' has-error' : ''}`}>
          <span className="field-label" id="proof-file-label">
            {t('proof.file')}
          </span>
          <input
            id="proof-file"
            className="file-input"
            type="file"
            accept="image/png,image/jpeg,.png,.jpg,.jpeg"
            onChange={choose}
            aria-labelledby="proof-file-label"
            aria-describedby="proof-file-hint"
            aria-invalid={!!error}
            disabled={busy}
          />
          <label htmlFor="proof-file" className="file-drop" id="proof-file-button">
            {preview ? (
              <img src={preview} alt={t('proof.previewAlt')} className="file-preview" />
            ) : (
              <UploadIcon size={28} />
            )}
            <span className="file-drop-text">{file ? t('proof.change') : t('proof.choose')}</span>
          </label>
          <p className="muted small" id="proof-file-hint" data-testid="proof-file-hint">
            {file
              ? t('proof.selected', { name: file.name, size: sizeText(file.size) })
              : `${t('errors:proof_required')} ${t('proof.fileHint')}`}
          </p>
          {error && (
            <p className="field-error" role="alert" data-testid="proof-error">
              {error}
            </p>
          )}
        </div>
        <button
          type="submit"
          className="btn btn-primary btn-block"
          disabled={!file || busy}
          data-testid="proof-submit"
        >
          {busy ? t('proof.sending') : t('proof.submit')}
        </button>
      </form>
    </section>
  );
}
