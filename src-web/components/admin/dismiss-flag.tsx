import { dismissFlagSchema, type FlagDto, MAX_DISMISS_NOTE } from '@contract/fraud';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../lib/api';
import { useToast } from '../toast';
import { actionError } from './action-error';
import { adminKeys } from './admin-api';
import { dismissFlag, replaceFlag } from './flags-api';

/**
 * "Dismiss" on an open flag: a required note (why it is no problem), then the flag is marked
 * dismissed with the admin's name. The screens showing it are updated in place and only marked
 * stale, not refetched: under the "Flagged" filter the item stays on screen until the list is
 * loaded again, so the admin can still decide on it. A refusal (dismissed meanwhile, your own
 * item) is shown under the note.
 */
export function DismissFlag({ flag, label }: { flag: FlagDto; label: string }) {
  const { t } = useTranslation('adminFraud');
  const toast = useToast();
  const queryClient = useQueryClient();
  const id = useId();
  const [open, setOpen] = useState(false);
  const [note, setNote] = useState('');
  const [touched, setTouched] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const dismiss = useMutation({
    mutationFn: (text: string) => dismissFlag(flag._id, text),
    onMutate: () => setFailure(null),
    onSuccess: (updated) => {
      queryClient.setQueriesData({ queryKey: adminKeys.all }, (data: unknown) => replaceFlag(data, updated));
      void queryClient.invalidateQueries({ queryKey: adminKeys.all, refetchType: 'none' });
      toast.success(t('dismiss.done'));
    },
    onError: (err) => {
      if (err instanceof ApiError && err.errors.note) {
        setFailure(t('dismiss.noteRequired'));
        return;
      }
      const message = actionError(t, err, 'adminFraud:dismiss.failed');
      setFailure(message);
      if (err instanceof ApiError && err.code === 'flag_dismissed') {
        // another admin was quicker: the lists are loaded again to show who (under the Flagged
        // filter the item may leave the list and its window close, so a toast says it too)
        toast.error(message);
        void queryClient.invalidateQueries({ queryKey: adminKeys.all });
      }
    },
  });
  const valid = dismissFlagSchema.safeParse({ note }).success;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (valid) dismiss.mutate(note.trim());
  };

  if (!open) {
    return (
      <button
        type="button"
        className="btn btn-outline btn-sm"
        aria-expanded={false}
        aria-label={t('dismiss.openLabel', { kind: label })}
        onClick={() => setOpen(true)}
        data-testid="flag-dismiss-open"
      >
        {t('dismiss.open')}
      </button>
    );
  }
  const showError = touched && !valid;
  return (
    <form className="flag-dismiss" onSubmit={submit} noValidate data-testid="flag-dismiss-form">
      <div className={`field${showError ? ' has-error' : ''}`}>
        <label htmlFor={`${id}-note`}>{t('dismiss.note')}</label>
        <textarea
          id={`${id}-note`}
          rows={2}
          maxLength={MAX_DISMISS_NOTE}
          value={note}
          // the admin asked for the form: the note is where they write next
          autoFocus
          onChange={(e) => setNote(e.target.value)}
          onBlur={() => setTouched(true)}
          aria-invalid={showError ? true : undefined}
          aria-describedby={`${id}-hint`}
          data-testid="flag-dismiss-note"
        />
        <p id={`${id}-hint`} className={showError ? 'field-error' : 'muted small'}>
          {showError ? t('dismiss.noteRequired') : t('dismiss.hint')}
        </p>
      </div>
      {failure && (
        <p className="notice notice-error" role="alert" data-testid="flag-dismiss-failure">
          {failure}
        </p>
      )}
      <div className="flag-dismiss-actions">
        <button
          type="button"
          className="btn btn-ghost btn-sm"
          onClick={() => {
            setOpen(false);
            setFailure(null);
          }}
        >
          {t('common:actions.cancel')}
        </button>
        <button
          type="submit"
          className="btn btn-primary btn-sm"
          disabled={dismiss.isPending}
          data-testid="flag-dismiss-submit"
        >
          {dismiss.isPending ? t('dismiss.sending') : t('dismiss.submit')}
        </button>
      </div>
    </form>
  );
}
