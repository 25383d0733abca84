import type { UserTaskDto } from '@contract/tasks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { paths } from '../../app/paths';
import { Skeleton } from '../../components/skeleton';
import { useToast } from '../../components/toast';
import { getData } from '../../lib/api';
import { useAuth } from '../../lib/auth';
import { errorText } from '../../lib/errors';
import { usePageTitle } from '../../lib/page-title';
import { MY_TASK_SECTIONS, type MyTaskSection, sectionCounts, sectionOf } from '../../lib/task-offer';
import { useNow } from '../../lib/use-now';
import { AppealDialog } from './appeal-dialog';
import { MyTaskRow } from './my-task-row';
import { restartTask, useMySubmissions } from './submissions-api';

function readSection(value: string | null): MyTaskSection | null {
  return MY_TASK_SECTIONS.find((s) => s === value) ?? null;
}

/**
 * /my-tasks: every task the worker started, by where it stands (in progress with its time left,
 * in review, under appeal, rejected, approved, ended), each with the one thing it offers next.
 */
export function MyTasksPage() {
  const { t } = useTranslation(['submissions', 'common']);
  usePageTitle(t('common:nav.myTasks'));
  const { user } = useAuth();
  const toast = useToast();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  // the same cache entry as the task list's card states: one fetch, one truth
  const records = useQuery({
    queryKey: ['tasks', 'mine', user?._id ?? 'guest'],
    queryFn: ({ signal }) => getData<UserTaskDto[]>('/tasks/user', { signal }),
  });
  const hasOpen = (records.data ?? []).some((r) => r.status === 'in_progress');
  const now = useNow(1000, hasOpen);
  const counts = useMemo(() => sectionCounts(records.data ?? [], now), [records.data, now]);
  const chosen = readSection(params.get('section'));
  // without a choice: the first section with something in it (in progress first)
  const section = chosen ?? MY_TASK_SECTIONS.find((s) => counts[s] > 0) ?? 'in_progress';
  const shown = (records.data ?? []).filter((r) => sectionOf(r, now) === section);
  const rejected = useMySubmissions('rejected');
  const [appealing, setAppealing] = useState<string | null>(null);

  const restart = useMutation({
    mutationFn: restartTask,
    onSuccess: (_record, taskId) => {
      void queryClient.invalidateQueries({ queryKey: ['tasks'] });
      void queryClient.invalidateQueries({ queryKey: ['submissions'] });
      navigate(paths.task(taskId));
    },
    onError: (err) => toast.error(errorText(t, err, 'submissions:restartError')),
  });

  return (
    <section className="container section my-tasks" data-testid="my-tasks">
      <header className="page-head">
        <h1>{t('common:nav.myTasks')}</h1>
        <p className="muted">{t('myTasks.subtitle')}</p>
      </header>
      <nav className="my-tasks-tabs" aria-label={t('myTasks.sections')}>
        {MY_TASK_SECTIONS.map((s) => (
          <button
            key={s}
            type="button"
            className={`chip${s === section ? ' is-active' : ''}`}
            aria-pressed={s === section}
            onClick={() => setParams({ section: s }, { replace: true })}
            data-testid={`section-${s}`}
          >
            {t(s === 'ended' ? 'myTasks.ended' : `common:offer.${s}.badge`)}{' '}
            <span className="chip-count">{records.data ? counts[s] : '…'}</span>
          </button>
        ))}
      </nav>
      {records.isPending ? (
        <Skeleton layout="cards" />
      ) : records.isError ? (
        <div className="card state-card" role="alert">
          <p className="notice notice-error">{t('loadError')}</p>
          <button type="button" className="btn btn-primary" onClick={() => records.refetch()}>
            {t('common:actions.retry')}
          </button>
        </div>
      ) : shown.length === 0 ? (
        <div className="card state-card" data-testid="my-tasks-empty">
          <p>{t(`myTasks.empty.${section}`)}</p>
          <Link className="btn btn-primary" to={paths.tasks}>
            {t('browseTasks')}
          </Link>
        </div>
      ) : (
        <ul className="my-task-list">
          {shown.map((r) => (
            <MyTaskRow
              key={r._id}
              record={r}
              now={now}
              suspended={user?.status === 'suspended'}
              onRestart={() => restart.mutate(r.task._id)}
              restarting={restart.isPending && restart.variables === r.task._id}
              onAppeal={() => setAppealing(r.submission?._id ?? null)}
            />
          ))}
        </ul>
      )}
      <p className="muted small">
        <Link to={paths.mySubmissions}>{t('myTasks.allProofs')}</Link>
      </p>
      <AppealDialog
        submission={rejected.data?.find((s) => s._id === appealing) ?? null}
        onClose={() => setAppealing(null)}
      />
    </section>
  );
}
