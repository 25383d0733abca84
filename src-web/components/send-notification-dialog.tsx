import { NOTIFICATION_TYPES, TIMINGS_MS } from '@contract/constants';
import type { NotificationSentDto } from '@contract/notifications';
import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getData } from '../lib/api';
import { errorText, fieldTexts } from '../lib/errors';
import { Field } from './field';
import { Modal } from './modal';
import {
  checkNotificationForm,
  initialNotificationValues,
  type NotificationFormValues,
} from './send-notification-form';

interface Props {
  open: boolean;
  onClose(): void;
  /** Prefills the target player id (a user's push id), aimed at that one user. */
  initialPlayerId?: string;
}

/**
 * The admins' send-notification dialog: a type (customMessage reveals a title and a message),
 * one user by player id or everyone (after a confirmation). On success a message shows and
 * the dialog closes after 2 seconds.
 */
export function SendNotificationDialog({ open, onClose, initialPlayerId }: Props) {
  const { t } = useTranslation('admin');
  return (
    <Modal open={open} title={t('notify.title')} onClose={onClose} closeOnBackdrop={false}>
      <NotificationForm initialPlayerId={initialPlayerId ?? ''} onClose={onClose} />
    </Modal>
  );
}

function NotificationForm({ initialPlayerId, onClose }: { initialPlayerId: string; onClose(): void }) {
  const { t } = useTranslation('admin');
  const id = useId();
  const [values, setValues] = useState<NotificationFormValues>(() =>
    initialNotificationValues(initialPlayerId),
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [confirming, setConfirming] = useState(false);
  const confirmRef = useRef<HTMLButtonElement>(null);
  // the caller may pass a new function on every render: the close timer must not restart
  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  const send = useMutation({
    mutationFn: (body: Record<string, string>) =>
      getData<NotificationSentDto>('/auth/send-notification', { method: 'POST', body }),
  });
  // said as the dialog opens, not after the message is written
  const status = useQuery({
    queryKey: ['admin', 'push-status'],
    queryFn: () => getData<{ configured: boolean }>('/admin/notifications/status'),
    staleTime: 60_000,
  });
  const unconfigured = status.data?.configured === false;

  useEffect(() => {
    if (!send.isSuccess) return;
    const timer = setTimeout(() => closeRef.current(), TIMINGS_MS.dialogClose);
    return () => clearTimeout(timer);
  }, [send.isSuccess]);
  useEffect(() => {
    if (confirming) confirmRef.current?.focus();
  }, [confirming]);

  const set = <K extends keyof NotificationFormValues>(key: K, value: NotificationFormValues[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    setErrors({});
    send.reset();
  };

  const submit = (e?: FormEvent) => {
    e?.preventDefault();
    const checked = checkNotificationForm(values);
    if (!checked.ok) {
      const text =
        checked.code === 'validation_error'
          ? (fieldTexts(t, { [checked.field]: checked.message })[checked.field] ?? checked.message)
          : t(`errors:${checked.code}`);
      setErrors({ [checked.field]: text });
      document.getElementById(`${id}-${checked.field}`)?.focus();
      return;
    }
    if (values.target === 'all' && !confirming) {
      setConfirming(true);
      return;
    }
    setConfirming(false);
    send.mutate(checked.body);
  };

  if (send.isSuccess) {
    return (
      <p className="notice notice-success" role="status" data-testid="notify-sent">
        {send.data.pushed
          ? t(values.target === 'all' ? 'notify.sentAll' : 'notify.sentUser')
          : t(send.data.inbox > 0 ? 'notify.sentInbox' : 'notify.sentNowhere')}
      </p>
    );
  }

  if (confirming) {
    return (
      <div className="notify-confirm" role="alertdialog" aria-labelledby={`${id}-confirm`}>
        <p id={`${id}-confirm`} className="notice notice-info">
          {t('notify.confirmAll')}
        </p>
        <div className="form-actions">
          <button type="button" className="btn btn-outline" onClick={() => setConfirming(false)}>
            {t('common:actions.cancel')}
          </button>
          <button type="button" ref={confirmRef} className="btn btn-primary" onClick={() => submit()}>
            {t('notify.confirmSend')}
          </button>
        </div>
      </div>
    );
  }

  const custom = values.notificationType === 'customMessage';
  return (
    <form onSubmit={submit} noValidate className="notify-form">
      {unconfigured && (
        <p className="notice notice-info" data-testid="notify-unconfigured">
          {t('notify.unconfigured')}
        </p>
      )}
      {send.isError && (
        <p className="notice notice-error" role="alert">
          {errorText(t, send.error, 'admin:notify.sendError')}
        </p>
      )}
      <Field id={`${id}-notificationType`} label={t('notify.type')} error={errors.notificationType}>
        <select
          id={`${id}-notificationType`}
          value={values.notificationType}
          onChange={(e) =>
            set('notificationType', NOTIFICATION_TYPES.find((n) => n === e.target.value) ?? '')
          }
        >
          <option value="">{t('notify.chooseType')}</option>
          {NOTIFICATION_TYPES.map((type) => (
            <option key={type} value={type}>
              {t(`notify.types.${type}`)}
            </option>
          ))}
        </select>
      </Field>
      {custom && (
        <>
          <Field id={`${id}-title`} label={t('notify.messageTitle')} error={errors.title}>
            <input
              id={`${id}-title`}
              value={values.title}
              maxLength={100}
              onChange={(e) => set('title', e.target.value)}
            />
          </Field>
          <Field id={`${id}-message`} label={t('notify.message')} error={errors.message}>
            <textarea
              id={`${id}-message`}
              rows={4}
              value={values.message}
              maxLength={1000}
              onChange={(e) => set('message', e.target.value)}
            />
          </Field>
        </>
      )}
      <fieldset className="notify-target">
        <legend>{t('notify.target')}</legend>
        {(['user', 'all'] as const).map((target) => (
          <label key={target} className="checkbox">
            <input
              type="radio"
              name={`${id}-target`}
              value={target}
              checked={values.target === target}
              onChange={() => set('target', target)}
            />
            <span>{t(`notify.targets.${target}`)}</span>
          </label>
        ))}
      </fieldset>
      {values.target === 'user' && (
        <Field id={`${id}-playerId`} label={t('notify.playerId')} error={errors.playerId}>
          <input
            id={`${id}-playerId`}
            value={values.playerId}
            autoComplete="off"
            spellCheck={false}
            onChange={(e) => set('playerId', e.target.value)}
            aria-describedby={`${id}-playerId-hint`}
          />
          <small className="muted" id={`${id}-playerId-hint`}>
            {t('notify.playerIdHint')}
          </small>
        </Field>
      )}
      <div className="form-actions">
        <button type="button" className="btn btn-outline" onClick={onClose}>
          {t('common:actions.cancel')}
        </button>
        <button
          type="submit"
          className="btn btn-primary"
          disabled={send.isPending || (unconfigured && !custom)}
        >
          {send.isPending ? t('notify.sending') : t('notify.send')}
        </button>
      </div>
    </form>
  );
}
