import type { TaskDto } from '@contract/tasks';
import type { Page } from '@contract/types';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, Navigate } from 'react-router-dom';
import { paths } from '../../app/paths';
import { CheckIcon, GiftIcon, ListIcon, UploadIcon } from '../../components/icons';
import { PageLoader } from '../../components/page-loader';
import { getData } from '../../lib/api';
import { useAuth } from '../../lib/auth';
import { formatMoney } from '../../lib/format';
import { usePageTitle } from '../../lib/page-title';
import { apiQuery, DEFAULT_FILTERS } from '../tasks/task-filters';

const STEPS = [
  { key: 'choose', Icon: ListIcon },
  { key: 'complete', Icon: CheckIcon },
  { key: 'upload', Icon: UploadIcon },
  { key: 'earn', Icon: GiftIcon },
] as const;

// the landing page's stand-ins for a site with no featured task yet: fixed texts and rewards
const SAMPLES = [
  { key: 'review', reward: 15, category: 'review' },
  { key: 'follow', reward: 5, category: 'social_media' },
  { key: 'survey', reward: 25, category: 'survey' },
] as const;

const TESTIMONIALS = ['t1', 't2', 't3'] as const;

/** How many of the site's featured tasks the landing page shows. */
const FEATURED_SHOWN = 3;

/**
 * The site's own featured tasks, from the public list (which puts featured tasks first), so a
 * visitor sees real, clickable work; an empty list leaves the fixed samples in their place.
 */
function useFeaturedTasks(enabled: boolean) {
  return useQuery({
    queryKey: ['tasks', 'landing-featured'],
    queryFn: ({ signal }) =>
      getData<Page<TaskDto>>(`/tasks?${apiQuery(DEFAULT_FILTERS, FEATURED_SHOWN)}`, { signal }),
    select: (page) => page.items.filter((task) => task.isFeatured).slice(0, FEATURED_SHOWN),
    enabled,
    retry: false,
  });
}

export function LandingPage() {
  const { user, loading } = useAuth();
  const { t } = useTranslation(['landing', 'common']);
  usePageTitle(null);
  const featured = useFeaturedTasks(!loading && !user);
  if (loading) return <PageLoader />;
  if (user) return <Navigate to={paths.tasks} replace />;
  return (
    <div className="landing">
      <section className="hero">
        <div className="container hero-inner">
          <h1>{t('hero.title')}</h1>
          <p className="hero-lead">{t('hero.subtitle')}</p>
          <div className="row-center">
            <Link className="btn btn-lg btn-hero-primary" to={paths.register} data-testid="hero-primary">
              {t('hero.start')}
            </Link>
            <Link className="btn btn-lg btn-hero-secondary" to={paths.tasks}>
              {t('hero.browse')}
            </Link>
          </div>
        </div>
      </section>

      <section className="container section" aria-labelledby="how-title">
        <h2 id="how-title" className="section-title">
          {t('how.title')}
        </h2>
        <ol className="steps-grid">
          {STEPS.map(({ key, Icon }, i) => (
            <li key={key} className="card step">
              <span className="step-icon">
                <Icon size={26} />
              </span>
              <span className="step-number">{i + 1}</span>
              <h3>{t(`how.${key}.title`)}</h3>
              <p>{t(`how.${key}.text`)}</p>
            </li>
          ))}
        </ol>
      </section>

      <section className="section alt" aria-labelledby="samples-title" data-testid="landing-tasks">
        <div className="container">
          {featured.isPending ? (
            <div className="cards-grid featured-pending" aria-busy="true" />
          ) : featured.data && featured.data.length > 0 ? (
            <FeaturedTasks tasks={featured.data} />
          ) : (
            <>
              <h2 id="samples-title" className="section-title">
                {t('samples.title')}
              </h2>
              <div className="cards-grid" data-testid="landing-samples">
                {SAMPLES.map((s) => (
                  <article key={s.key} className="card sample-task">
                    <span className="badge">{t(`common:categories.${s.category}`)}</span>
                    <h3>{t(`samples.${s.key}.title`)}</h3>
                    <p>{t(`samples.${s.key}.text`)}</p>
                    <p className="reward">{formatMoney(s.reward)}</p>
                  </article>
                ))}
              </div>
            </>
          )}
        </div>
      </section>

      <section className="container section" aria-labelledby="testimonials-title">
        <h2 id="testimonials-title" className="section-title">
          {t('testimonials.title')}
        </h2>
        <div className="cards-grid">
          {TESTIMONIALS.map((k) => (
            <figure key={k} className="card testimonial">
              <blockquote>“{t(`testimonials.${k}.quote`)}”</blockquote>
              <figcaption>
                <strong>{t(`testimonials.${k}.name`)}</strong> · {t(`testimonials.${k}.city`)}
              </figcaption>
            </figure>
          ))}
        </div>
      </section>

      <section className="cta">
        <div className="container cta-inner">
          <h2>{t('cta.title')}</h2>
          <p>{t('cta.text')}</p>
          <Link className="btn btn-light btn-lg" to={paths.register}>
            {t('cta.button')}
          </Link>
        </div>
      </section>
    </div>
  );
}

/** The featured tasks as cards whose title opens the task, with a way on to the whole list. */
function FeaturedTasks({ tasks }: { tasks: TaskDto[] }) {
  const { t } = useTranslation(['landing', 'common']);
  return (
    <>
      <h2 id="samples-title" className="section-title">
        {t('featured.title')}
      </h2>
      <div className="cards-grid" data-testid="landing-featured">
        {tasks.map((task) => (
          <article key={task._id} className="card sample-task task-card" data-testid="landing-task">
            <span className="badge">{t(`common:categories.${task.category}`)}</span>
            <h3>
              <Link to={paths.task(task._id)} className="stretched-link">
                {task.title}
              </Link>
            </h3>
            <p className="task-card-desc">{task.description}</p>
            <p className="reward">{formatMoney(task.reward)}</p>
          </article>
        ))}
      </div>
      <p className="row-center featured-more">
        <Link className="btn btn-outline" to={paths.tasks}>
          {t('featured.all')}
        </Link>
      </p>
    </>
  );
}
