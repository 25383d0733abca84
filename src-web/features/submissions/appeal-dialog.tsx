import { APPEAL_FIELD_MESSAGES, APPEAL_MESSAGE, appealSchema } from '@contract/appeals';
import type { SubmissionDto } from '@contract/submissions';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from '../../components/modal';
import { useToast } from '../../components/toast';
import { ApiError, getData } from '../../lib/api';
import { errorText } from '../../lib/errors';

/** The text of an appeal field message in the reader's language. */
function messageText(t: (key: string) => string, message: string): string {
  const key = (Object.keys(APPEAL_FIELD_MESSAGES) as (keyof typeof APPEAL_FIELD_MESSAGES)[]).find(
    (k) => APPEAL_FIELD_MESSAGES[k] === message,
  );
  return key ? t(`submissions:appeal.messages.${key}`) : message;
}

/**
 * Appeal a rejection: a message of 10 to 1,000 characters, checked with the server's
 * own schema; says first that an appeal and a restart exclude each other.
 */
export function AppealDialog({ submission, onClose }: { submission: SubmissionDto | null; onClose(): void }) {
  const { t } = useTranslation('submissions');
  const toast = useToast();
  const queryClient = useQueryClient();
  const [message, setMessage] = useState('');
  const [error, setError] = useState<string | null>(null);
  const send = useMutation({
    mutationFn: (id: string) =>
      getData<SubmissionDto>(`/submissions/${encodeURIComponent(id)}/appeal`, {
        method: 'POST',
        body: { message },
      }),
    onSuccess: () => {
      toast.success(t('appeal.sent'));
      setMessage('');
      void queryClient.invalidateQueries();
      onClose();
    },
    onError: (err) => {
      const field = err instanceof ApiError ? err.errors.message : undefined;
      setError(field ? messageText(t, field) : errorText(t, err, 'submissions:appeal.failed'));
    },
  });
  const submit = () => {
    const checked = appealSchema.safeParse({ message });
    if (!checked.success) return setError(messageText(t, checked.error.issues[0]?.message ?? ''));
    if (submission) send.mutate(submission._id);
  };
  return (
    <Modal
      open={submission !== null}
      title={t('appeal.title', { title: submission?.task.title ?? '' })}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn btn-outline" onClick={onClose}>
            {t('common:actions.cancel')}
          </button>
          <button
            type="button"
            className="btn btn-primary"
            disabled={send.isPending}
            onClick={submit}
            data-testid="appeal-send"
          >
            {send.isPending ? t('common:status.wait') : t('appeal.send')}
          </button>
        </>
      }
    >
      <p className="notice notice-info">{t('appeal.explain')}</p>
      <div className={`field${error ? ' has-error' : ''}`}>
        <label htmlFor="appeal-message">{t('appeal.label')}</label>
        <textarea
          id="appeal-message"
          rows={5}
          maxLength={APPEAL_MESSAGE.max}
          value={message}
          aria-invalid={error ? true : undefined}
          aria-describedby={`appeal-message-hint${error ? ' appeal-message-error' : ''}`}
          onChange={(e) => {
            setMessage(e.target.value);
            setError(null);
          }}
          data-testid="appeal-message"
        />
        <p className="muted small" id="appeal-message-hint">
          {t('appeal.hint', { count: [...message.trim()].length })}
        </p>
        {error && (
          <p className="field-error" id="appeal-message-error" role="alert">
            {error}
          </p>
        )}
      </div>
    </Modal>
  );
}
