import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { paths } from '../../app/paths';
import { Skeleton } from '../../components/skeleton';
import { useToast } from '../../components/toast';
import { ApiError } from '../../lib/api';
import { errorText } from '../../lib/errors';
import { usePageTitle } from '../../lib/page-title';
import { AppealDialog } from './appeal-dialog';
import { ProofModal } from './proof-modal';
import { StatusFilter } from './status-filter';
import { SubmissionCard } from './submission-card';
import { readFilter, restartTask, type SubmissionFilter, useMySubmissions } from './submissions-api';

/** /my-submissions: the user's proofs by status, each with its review, its proof and its task. */
export function MySubmissionsPage() {
  const { t } = useTranslation('submissions');
  usePageTitle(t('common:titles.mySubmissions'));
  const toast = useToast();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const filter = readFilter(params.get('status'));
  const list = useMySubmissions(filter);
  const [proofOf, setProofOf] = useState<string | null>(null);
  const [appealing, setAppealing] = useState<string | null>(null);

  const restart = useMutation({
    mutationFn: restartTask,
    onSuccess: (_record, taskId) => {
      void queryClient.invalidateQueries({ queryKey: ['tasks'] });
      void queryClient.invalidateQueries({ queryKey: ['submissions'] });
      navigate(paths.task(taskId));
    },
    // the server's reason when it gave one (say, the task is full now), else the page's own message
    onError: (err) =>
      toast.error(
        err instanceof ApiError && err.status < 500 && err.code !== 'internal'
          ? errorText(t, err, 'submissions:restartError')
          : t('restartError'),
      ),
  });

  const setFilter = (f: SubmissionFilter) => setParams(f === 'all' ? {} : { status: f }, { replace: true });
  const shown = list.data?.find((s) => s._id === proofOf);

  return (
    <section className="container section my-submissions">
      <header className="page-head">
        <h1>{t('title')}</h1>
        <p className="muted">{t('subtitle')}</p>
      </header>
      <StatusFilter value={filter} onChange={setFilter} />
      {list.isPending ? (
        <Skeleton layout="cards" />
      ) : list.isError ? (
        <div className="card state-card" role="alert" data-testid="submissions-error">
          <p className="notice notice-error">{t('loadError')}</p>
          <button type="button" className="btn btn-primary" onClick={() => list.refetch()}>
            {t('common:actions.retry')}
          </button>
        </div>
      ) : list.data.length === 0 ? (
        <div className="card state-card" data-testid="submissions-empty">
          <p>{t(`empty.${filter}`)}</p>
          <Link className="btn btn-primary" to={paths.tasks}>
            {t('browseTasks')}
          </Link>
        </div>
      ) : (
        <div className="submission-list">
          {list.data.map((s) => (
            <SubmissionCard
              key={s._id}
              submission={s}
              onViewProof={() => setProofOf(s._id)}
              onRestart={() => restart.mutate(s.task._id)}
              onAppeal={() => setAppealing(s._id)}
              restarting={restart.isPending && restart.variables === s.task._id}
            />
          ))}
        </div>
      )}
      <AppealDialog
        submission={list.data?.find((s) => s._id === appealing) ?? null}
        onClose={() => setAppealing(null)}
      />
      <ProofModal
        url={shown?.proofImageUrl ?? null}
        title={shown?.task.title ?? ''}
        onClose={() => setProofOf(null)}
        onExpired={() => void list.refetch()}
      />
    </section>
  );
}
