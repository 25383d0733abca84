import type { AdminSubmissionDto } from '@contract/admin';
import { APPEAL_RESPONSE_MAX } from '@contract/appeals';
import type { SubmissionDto } from '@contract/submissions';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminKeys } from '../../../components/admin/admin-api';
import { newIdempotencyKey } from '../../../components/admin/idempotency-key';
import { serverErrorText } from '../../../components/admin/server-error';
import { useToast } from '../../../components/toast';
import { getData } from '../../../lib/api';
import { shownFeedback } from '../../../lib/feedback';

/**
 * The worker's appeal of a rejection and the rejection it answers, as the evidence window shows
 * them: first, before the flags and the proof, since they are what the admin decides on.
 */
export function AppealSummary({ item }: { item: AdminSubmissionDto }) {
  const { t } = useTranslation('adminLists');
  if (!item.appeal) return null;
  const reason = item.rejectionReason
    ? t(`rejectionReasons.${item.rejectionReason}`, { defaultValue: item.rejectionReason })
    : null;
  const feedback = shownFeedback(t, item);
  return (
    <section
      className="al-appeal-first"
      aria-label={t('appeal.title')}
      data-testid="appeal-summary"
      data-status={item.appeal.status}
    >
      <dl className="al-info">
        <div className="al-span-all al-appeal" data-testid="appeal-message">
          <dt>
            {t('appeal.title')} <span className="badge">{t(`appeal.status.${item.appeal.status}`)}</span>
          </dt>
          <dd className="pre-line al-break">{item.appeal.message}</dd>
          {item.appeal.response && <dd className="pre-line al-break muted">{item.appeal.response}</dd>}
        </div>
        <div className="al-span-all" data-testid="appeal-rejection">
          <dt>{t('appealFirst.rejection')}</dt>
          <dd className="al-break">
            {reason ?? t('appealFirst.noReason')}
            {feedback && <span className="pre-line al-appeal-feedback">{feedback}</span>}
          </dd>
        </div>
      </dl>
    </section>
  );
}

/**
 * Overturn (approve and pay, asked by its own button) or uphold a pending appeal, with a response
 * to the worker; one Idempotency-Key per opened decision, so a retry pays nothing twice.
 */
export function AppealDecision({ item, onDone }: { item: AdminSubmissionDto; onDone(): void }) {
  const { t } = useTranslation('adminLists');
  const toast = useToast();
  const queryClient = useQueryClient();
  const [key] = useState(newIdempotencyKey);
  const [response, setResponse] = useState('');
  const [error, setError] = useState<string | null>(null);
  const decide = useMutation({
    mutationFn: (decision: 'overturn' | 'uphold') =>
      getData<SubmissionDto>(`/admin/submissions/${encodeURIComponent(item._id)}/appeal`, {
        method: 'PUT',
        body: { decision, response },
        headers: { 'Idempotency-Key': `${key}-${decision}` },
      }),
    onSuccess: (_data, decision) => {
      void queryClient.invalidateQueries({ queryKey: adminKeys.all });
      toast.success(t(decision === 'overturn' ? 'appeal.overturned' : 'appeal.upheld'));
      onDone();
    },
    onError: (err) => setError(serverErrorText(t, err, 'adminLists:appeal.failed')),
  });
  const send = (decision: 'overturn' | 'uphold') => {
    if (!response.trim()) return setError(t('appeal.responseRequired'));
    decide.mutate(decision);
  };
  return (
    <div className="al-appeal-decision" data-testid="appeal-decision">
      <div className={`field${error ? ' has-error' : ''}`}>
        <label htmlFor="appeal-response">{t('appeal.response')}</label>
        <textarea
          id="appeal-response"
          rows={2}
          maxLength={APPEAL_RESPONSE_MAX}
          placeholder={t('appeal.responsePlaceholder')}
          value={response}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'appeal-response-error' : undefined}
          onChange={(e) => {
            setResponse(e.target.value);
            setError(null);
          }}
          data-testid="appeal-response"
        />
        {error && (
          <p className="field-error" id="appeal-response-error" role="alert">
            {error}
          </p>
        )}
      </div>
      <div className="al-actions">
        <button
          type="button"
          className="btn btn-success"
          disabled={decide.isPending}
          onClick={() => send('overturn')}
          data-testid="appeal-overturn"
        >
          {t('appeal.overturn')}
        </button>
        <button
          type="button"
          className="btn btn-outline"
          disabled={decide.isPending}
          onClick={() => send('uphold')}
          data-testid="appeal-uphold"
        >
          {t('appeal.uphold')}
        </button>
      </div>
    </div>
  );
}
