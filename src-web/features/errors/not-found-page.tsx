import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { paths } from '../../app/paths';
import { usePageTitle } from '../../lib/page-title';

export function NotFoundPage() {
  const { t } = useTranslation();
  usePageTitle(t('common:titles.notFound'));
  const navigate = useNavigate();
  return (
    <section className="container narrow center-card card not-found" data-testid="not-found">
      <p className="big-code" aria-hidden="true">
        404
      </p>
      <h1>{t('notFound.title')}</h1>
      <p>{t('notFound.message')}</p>
      <div className="row-center">
        <Link className="btn btn-primary" to={paths.home}>
          {t('notFound.home')}
        </Link>
        <button type="button" className="btn btn-outline" onClick={() => navigate(-1)}>
          {t('notFound.back')}
        </button>
      </div>
    </section>
  );
}
