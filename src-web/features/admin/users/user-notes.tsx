import { NOTE_MAX_LENGTH, type UserNoteDto } from '@contract/user-notes';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadError } from '../../../components/admin/list-parts';
import { ApiError, getData } from '../../../lib/api';
import { formatDateTime } from '../../../lib/format';

const notesKey = (userId: string) => ['admin', 'users', userId, 'notes'] as const;

/**
 * The user page's internal notes: what admins want the next admin to know about the account
 * (a phone call, a warning given). Admins only; every note is in the audit log.
 */
export function UserNotes({ userId }: { userId: string }) {
  const { t } = useTranslation(['admin', 'errors']);
  const client = useQueryClient();
  const [text, setText] = useState('');
  const notes = useQuery({
    queryKey: notesKey(userId),
    queryFn: ({ signal }) =>
      getData<UserNoteDto[]>(`/admin/users/${encodeURIComponent(userId)}/notes`, { signal }),
  });
  const add = useMutation({
    mutationFn: (body: string) =>
      getData<UserNoteDto>(`/admin/users/${encodeURIComponent(userId)}/notes`, {
        method: 'POST',
        body: { body },
      }),
    onSuccess: () => {
      setText('');
      return client.invalidateQueries({ queryKey: notesKey(userId) });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (text.trim() !== '') add.mutate(text);
  };
  const error =
    add.error instanceof ApiError && add.error.code !== 'validation_error'
      ? t(`errors:${add.error.code}`, { defaultValue: t('userNotes.saveError') })
      : add.error
        ? t('userNotes.saveError')
        : null;
  return (
    <section
      className="card al-history user-notes"
      aria-labelledby="user-notes-title"
      data-testid="user-notes"
    >
      <h2 id="user-notes-title">{t('userNotes.title')}</h2>
      <p className="muted small">{t('userNotes.hint')}</p>
      <form className="user-notes-form" onSubmit={submit}>
        <label htmlFor="user-note-text">{t('userNotes.label')}</label>
        <textarea
          id="user-note-text"
          value={text}
          maxLength={NOTE_MAX_LENGTH}
          rows={3}
          onChange={(e) => setText(e.target.value)}
          data-testid="user-note-text"
        />
        <button
          type="submit"
          className="btn btn-primary btn-sm"
          disabled={add.isPending || text.trim() === ''}
          data-testid="user-note-add"
        >
          {t('userNotes.add')}
        </button>
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        {add.isSuccess && (
          <p className="muted small" role="status">
            {t('userNotes.saved')}
          </p>
        )}
      </form>
      {notes.isPending ? (
        <p className="muted">{t('common:status.loading')}</p>
      ) : notes.isError ? (
        <LoadError
          message={t('userNotes.loadError')}
          onRetry={() => notes.refetch()}
          testId="user-notes-error"
        />
      ) : notes.data.length === 0 ? (
        <p className="muted" data-testid="user-notes-empty">
          {t('userNotes.empty')}
        </p>
      ) : (
        <ol className="user-notes-list">
          {notes.data.map((n) => (
            <li key={n._id} data-testid="user-note">
              <p className="user-note-body">{n.body}</p>
              <p className="muted small">
                {t('userNotes.by', {
                  name: n.author.name ?? t('userNotes.unknownAuthor'),
                  date: formatDateTime(n.createdAt),
                })}
              </p>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
