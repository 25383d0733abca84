import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { paths } from '../app/paths';

/** Shown by pages a visitor or a non-admin may not see. */
export function AccessDenied({ signIn = false }: { signIn?: boolean }) {
  const { t } = useTranslation();
  return (
    <section className="container narrow center-card card" aria-labelledby="denied-title">
      <h1 id="denied-title">{t('denied.title')}</h1>
      <p>{t('denied.message')}</p>
      <Link className="btn btn-primary" to={signIn ? paths.login : paths.home}>
        {signIn ? t('nav.login') : t('denied.backHome')}
      </Link>
    </section>
  );
}
