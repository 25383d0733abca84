import type { ProofType } from '@contract/constants';
import {
  checkProof,
  MAX_PROOF_URL,
  MAX_SUBMISSION_DESCRIPTION,
  PROOF_TEXT_LIMITS,
  SUBMISSION_FIELD_MESSAGES,
} from '@contract/submissions';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useToast } from '../../components/toast';
import { ApiError } from '../../lib/api';
import { actionError, sendProof } from './tasks-api';

type FieldType = Exclude<ProofType, 'screenshot'>;

/** A proof field's message (shared with the server) in the reader's language. */
function fieldMessage(t: (key: string) => string, message: string): string {
  const key = (Object.keys(SUBMISSION_FIELD_MESSAGES) as (keyof typeof SUBMISSION_FIELD_MESSAGES)[]).find(
    (k) => SUBMISSION_FIELD_MESSAGES[k] === message,
  );
  return key ? t(`tasks:proof.messages.${key}`) : message;
}

/**
 * The proof of a task that asks for no image: a link, a code, a text, or nothing but
 * the note. Checked here with the server's own rule (checkProof) before it is sent; the server's
 * field messages are shown by their field too.
 */
export function ProofFieldsForm({
  taskId,
  type,
  onSent,
}: {
  taskId: string;
  type: FieldType;
  onSent(): void;
}) {
  const { t } = useTranslation(['tasks', 'errors']);
  const toast = useToast();
  const [value, setValue] = useState('');
  const [description, setDescription] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const field = type === 'link' ? 'proofUrl' : 'proofText';
  const errorId = `proof-${type}-error`;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const input = type === 'none' ? {} : { [field]: value };
    const checked = checkProof(type, { ...input, hasImage: false });
    if (!checked.ok) {
      setFieldError(fieldMessage(t, checked.errors[field] ?? Object.values(checked.errors)[0]));
      return;
    }
    setBusy(true);
    setError(null);
    setFieldError(null);
    try {
      await sendProof(taskId, { ...input, description: description.trim() });
      toast.success(t('proof.success'));
      onSent();
    } catch (err) {
      const message = err instanceof ApiError ? err.errors[field] : undefined;
      if (message) setFieldError(fieldMessage(t, message));
      else setError(actionError(t, err, 'tasks:proof.error'));
      setBusy(false);
    }
  };

  const common = {
    id: `proof-${type}`,
    value,
    'aria-invalid': fieldError ? true : undefined,
    'aria-describedby': `proof-${type}-hint${fieldError ? ` ${errorId}` : ''}`,
    onChange: (e: { target: { value: string } }) => {
      setValue(e.target.value);
      setFieldError(null);
    },
    'data-testid': 'proof-value',
  };
  return (
    <section
      className="card proof-form"
      id="proof-form"
      aria-labelledby="proof-title"
      data-testid="proof-form"
      data-type={type}
    >
      <h2 id="proof-title" tabIndex={-1}>
        {t(`proof.types.${type}.title`)}
      </h2>
      <form onSubmit={submit} noValidate>
        {type !== 'none' && (
          <div className={`field${fieldError ? ' has-error' : ''}`}>
            <label htmlFor={`proof-${type}`}>{t(`proof.types.${type}.label`)}</label>
            {type === 'link' && (
              <input
                {...common}
                type="url"
                inputMode="url"
                placeholder="https://"
                maxLength={MAX_PROOF_URL}
              />
            )}
            {type === 'code' && (
              <input {...common} type="text" autoComplete="off" maxLength={PROOF_TEXT_LIMITS.code.max} />
            )}
            {type === 'text' && <textarea {...common} rows={6} maxLength={PROOF_TEXT_LIMITS.text.max} />}
            <p className="muted small" id={`proof-${type}-hint`}>
              {t(`proof.types.${type}.hint`)}
              {type === 'text' && ` ${t('proof.count', { count: [...value.trim()].length })}`}
            </p>
            {fieldError && (
              <p className="field-error" id={errorId} role="alert" data-testid="proof-field-error">
                {fieldError}
              </p>
            )}
          </div>
        )}
        {type === 'none' && (
          <p className="muted" id="proof-none-hint">
            {t('proof.types.none.hint')}
          </p>
        )}
        <div className="field">
          <label htmlFor="proof-description">{t('proof.description')}</label>
          <textarea
            id="proof-description"
            rows={3}
            maxLength={MAX_SUBMISSION_DESCRIPTION}
            placeholder={t('proof.descriptionPlaceholder')}
            value={description}
            onChange={(e) => setDescription(e.target.value)}
          />
        </div>
        {error && (
          <p className="notice notice-error" role="alert" data-testid="proof-error">
            {error}
          </p>
        )}
        <button
          type="submit"
          className="btn btn-primary btn-block"
          disabled={busy}
          data-testid="proof-submit"
        >
          {busy ? t('proof.sending') : t('proof.submit')}
        </button>
      </form>
    </section>
  );
}
