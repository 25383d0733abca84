import type { TaskDto } from '@contract/tasks';
import { useTranslation } from 'react-i18next';
import { formatCount } from '../../../components/admin/growth';

/** Edit mode: the stored automatic comments with total, used and remaining counts. */
export function CommentPool({ task }: { task: TaskDto }) {
  const { t } = useTranslation('admin');
  const comments = task.automaticComments ?? [];
  const used = new Set(task.usedComments ?? []);
  const stats = task.commentStats;
  return (
    <section className="card comment-pool" aria-labelledby="comment-pool-title" data-testid="comment-pool">
      <h2 id="comment-pool-title">{t('taskForm.pool.title')}</h2>
      <dl className="comment-pool-stats">
        <div>
          <dt>{t('taskForm.pool.total')}</dt>
          <dd data-testid="pool-total">{formatCount(stats.total)}</dd>
        </div>
        <div className="tone-warn">
          <dt>{t('taskForm.pool.used')}</dt>
          <dd data-testid="pool-used">{formatCount(stats.used)}</dd>
        </div>
        <div className="tone-ok">
          <dt>{t('taskForm.pool.remaining')}</dt>
          <dd data-testid="pool-remaining">{formatCount(stats.remaining)}</dd>
        </div>
      </dl>
      {comments.length === 0 ? (
        <p className="muted">{t('taskForm.pool.empty')}</p>
      ) : (
        <ol className="comment-pool-list">
          {comments.map((text, i) => {
            const isUsed = used.has(text);
            return (
              // biome-ignore lint/suspicious/noArrayIndexKey: comments are unique texts, the index keeps order stable
              <li key={`${i}-${text}`} className={isUsed ? 'is-used' : undefined} data-testid="pool-comment">
                <span className="comment-pool-text">{text}</span>
                <span className={`badge ${isUsed ? 'badge-muted' : 'badge-active'}`}>
                  {t(isUsed ? 'taskForm.pool.usedBadge' : 'taskForm.pool.availableBadge')}
                </span>
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}
