import type { TaskDto } from '@contract/tasks';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { paths } from '../../app/paths';
import { StarIcon } from '../../components/icons';
import { Skeleton } from '../../components/skeleton';
import { ApiError } from '../../lib/api';
import { useAuth } from '../../lib/auth';
import { formatMoney } from '../../lib/format';
import { usePageTitle } from '../../lib/page-title';
import { taskOffer } from '../../lib/task-offer';
import { useNow } from '../../lib/use-now';
import { CommentBox } from './comment-box';
import { ProofFieldsForm } from './proof-fields-form';
import { ProofForm } from './proof-form';
import { goTo, nextStepOf, TaskActionBar } from './task-next-step';
import { TaskLoadError, TaskNotFound } from './task-not-found';
import { TaskSideCard } from './task-side-card';
import { TaskStatusBanner } from './task-status-banner';
import { useTask } from './tasks-api';
import { useTaskProgress } from './use-task-progress';

/** /tasks/{id}: the task, where the user stands with it, and what they can do next. */
export function TaskDetailPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const task = useTask(id);
  usePageTitle(task.data?.title ?? t('titles.task'));
  if (task.isPending) return <Skeleton layout="page" />;
  if (task.isError) {
    return task.error instanceof ApiError && task.error.status === 404 ? (
      <TaskNotFound />
    ) : (
      <TaskLoadError onRetry={() => task.refetch()} />
    );
  }
  return <TaskView task={task.data} />;
}

function TaskView({ task }: { task: TaskDto }) {
  const { t } = useTranslation(['tasks', 'common']);
  const { user } = useAuth();
  // each start (or restart) asks once to bring the worker to what they do next
  const [startedTimes, setStartedTimes] = useState(0);
  const progress = useTaskProgress(task, () => setStartedTimes((n) => n + 1));
  const record = task.userTask ?? null;
  // a record in progress counts down each second; at zero the page shows it expired
  const now = useNow(1000, record?.status === 'in_progress');
  const offer = taskOffer(record, { now, suspended: user?.status === 'suspended' });
  const state = offer.state;
  const ranOut = state === 'expired' && record?.status === 'in_progress';
  const { refresh } = progress;
  useEffect(() => {
    // the server's own view (its slot gone back, the comment taken off) replaces the countdown's
    if (ranOut) void refresh();
  }, [ranOut, refresh]);
  const broughtTo = useRef(0);
  const nextStep = offer.action === 'finish' ? nextStepOf(record) : null;
  useEffect(() => {
    if (!nextStep || startedTimes === broughtTo.current) return;
    broughtTo.current = startedTimes;
    goTo(nextStep);
  }, [nextStep, startedTimes]);
  return (
    <section className="container section task-detail" data-testid="task-detail">
      <Link to={paths.tasks} className="back-link">
        ← {t('detail.allTasks')}
      </Link>
      <header className="task-detail-head">
        <div className="task-badges">
          {task.isFeatured && (
            <span className="badge badge-star">
              <StarIcon size={12} />
              {t('card.featured')}
            </span>
          )}
          <span className="badge">{t(`common:categories.${task.category}`)}</span>
          <span className={`badge badge-difficulty-${task.difficulty}`}>
            {t(`common:difficulties.${task.difficulty}`)}
          </span>
        </div>
        <h1 data-testid="task-title">{task.title}</h1>
        {user?.role === 'admin' && (
          <Link className="btn btn-outline btn-sm" to={paths.taskEdit(task._id)}>
            {t('detail.edit')}
          </Link>
        )}
      </header>
      {user && (
        <TaskStatusBanner
          offer={offer}
          record={record}
          reward={task.reward}
          now={now}
          onRestart={progress.restart}
          restarting={progress.restarting}
        />
      )}
      <div className="task-detail-grid">
        <aside className="task-detail-side">
          <TaskSideCard
            task={task}
            offer={offer}
            signedIn={!!user}
            onStart={progress.start}
            starting={progress.starting}
            startError={progress.startError}
          />
        </aside>
        <div className="task-detail-main">
          <section className="card" aria-labelledby="desc-title">
            <h2 id="desc-title">{t('detail.description')}</h2>
            <p className="pre-line" data-testid="task-description">
              {task.description}
            </p>
          </section>
          {task.steps.length > 0 && (
            <section className="card" aria-labelledby="steps-title">
              <h2 id="steps-title">{t('detail.steps')}</h2>
              <ol className="task-list">
                {task.steps.map((step, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: steps may repeat; their place is their identity
                  <li key={i}>{step}</li>
                ))}
              </ol>
            </section>
          )}
          {task.requirements.length > 0 && (
            <section className="card" aria-labelledby="req-title">
              <h2 id="req-title">{t('detail.requirements')}</h2>
              <ul className="task-list">
                {task.requirements.map((item, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: requirements may repeat too
                  <li key={i}>{item}</li>
                ))}
              </ul>
            </section>
          )}
          {record?.automaticComment && state !== 'expired' && (
            <CommentBox comment={record.automaticComment} />
          )}
          {user &&
            offer.action === 'finish' &&
            (task.requiredProof === 'screenshot' ? (
              <ProofForm taskId={task._id} onSent={() => void progress.refresh()} />
            ) : (
              <ProofFieldsForm
                taskId={task._id}
                type={task.requiredProof}
                onSent={() => void progress.refresh()}
              />
            ))}
          <section className="card" aria-labelledby="reward-title">
            <h2 id="reward-title">{t('detail.rewardInfo')}</h2>
            <p>{t('detail.rewardInfoText', { amount: formatMoney(task.reward) })}</p>
          </section>
        </div>
      </div>
      {user && offer.action === 'finish' && record && <TaskActionBar record={record} now={now} />}
    </section>
  );
}
