import { useTranslation } from 'react-i18next';
import { Link, Navigate } from 'react-router-dom';
import { paths } from '../../app/paths';
import { CheckIcon, GiftIcon, ListIcon, UploadIcon } from '../../components/icons';
import { PageLoader } from '../../components/page-loader';
import { useAuth } from '../../lib/auth';
import { formatMoney } from '../../lib/format';
import { usePageTitle } from '../../lib/page-title';

const STEPS = [
  { key: 'choose', Icon: ListIcon },
  { key: 'complete', Icon: CheckIcon },
  { key: 'upload', Icon: UploadIcon },
  { key: 'earn', Icon: GiftIcon },
] as const;

// the landing page's examples: fixed texts and rewards, not live tasks
const SAMPLES = [
  { key: 'review', reward: 15, category: 'review' },
  { key: 'follow', reward: 5, category: 'social_media' },
  { key: 'survey', reward: 25, category: 'survey' },
] as const;

const TESTIMONIALS = ['t1', 't2', 't3'] as const;

export function LandingPage() {
  const { user, loading } = useAuth();
  const { t } = useTranslation(['landing', 'common']);
  usePageTitle(null);
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

      <section className="section alt" aria-labelledby="samples-title">
        <div className="container">
          <h2 id="samples-title" className="section-title">
            {t('samples.title')}
          </h2>
          <div className="cards-grid">
            {SAMPLES.map((s) => (
              <article key={s.key} className="card sample-task">
                <span className="badge">{t(`common:categories.${s.category}`)}</span>
                <h3>{t(`samples.${s.key}.title`)}</h3>
                <p>{t(`samples.${s.key}.text`)}</p>
                <p className="reward">{formatMoney(s.reward)}</p>
              </article>
            ))}
          </div>
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
