import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { paths } from '../app/paths';
import { useAuth } from '../lib/auth';
import { currentLanguage } from '../lib/i18n';
import { useSettings } from '../lib/settings';

const SOCIAL = ['facebook', 'twitter', 'instagram', 'linkedin'] as const;
const LEGAL = ['terms', 'privacy', 'kvkk'] as const;

function safeUrl(url: string): string | null {
  return /^https?:\/\//i.test(url) ? url : null;
}

/** About text per language, contact, social and quick links, from the settings or their defaults. */
export function Footer() {
  const settings = useSettings();
  const { user } = useAuth();
  const { t } = useTranslation();
  const lang = currentLanguage();
  const { contact, socialMedia, site } = settings;
  return (
    <footer className="footer">
      <div className="container footer-grid">
        <section>
          <h2>{site.name}</h2>
          <p>{site.description[lang] || t('footer.about')}</p>
        </section>
        <section>
          <h2>{t('footer.quickLinks')}</h2>
          <ul>
            <li>
              <Link to={paths.tasks}>{t('nav.tasks')}</Link>
            </li>
            {user ? (
              <>
                <li>
                  <Link to={paths.mySubmissions}>{t('nav.myTasks')}</Link>
                </li>
                <li>
                  <Link to={paths.profile}>{t('nav.profile')}</Link>
                </li>
              </>
            ) : (
              <>
                <li>
                  <Link to={paths.login}>{t('nav.login')}</Link>
                </li>
                <li>
                  <Link to={paths.register}>{t('nav.register')}</Link>
                </li>
                <li>
                  <Link to={paths.forgotPassword}>{t('footerAuth.forgotPassword')}</Link>
                </li>
              </>
            )}
          </ul>
        </section>
        <section>
          <h2>{t('footer.contact')}</h2>
          <ul>
            {contact.email && (
              <li>
                <a href={`mailto:${contact.email}`}>{contact.email}</a>
              </li>
            )}
            {contact.phone && (
              <li>
                <a href={`tel:${contact.phone.replace(/\s+/g, '')}`}>{contact.phone}</a>
              </li>
            )}
            {contact.address && <li>{contact.address}</li>}
          </ul>
        </section>
        <section>
          <h2>{t('footer.follow')}</h2>
          <ul className="social">
            {SOCIAL.map((name) => {
              const url = safeUrl(socialMedia[name]);
              return url ? (
                <li key={name}>
                  <a href={url} target="_blank" rel="noopener noreferrer">
                    {t(`footer.social.${name}`)}
                  </a>
                </li>
              ) : null;
            })}
          </ul>
        </section>
      </div>
      <nav className="container" aria-label={t('legal.footerLabel')}>
        <ul className="footer-legal">
          {LEGAL.map((document) => (
            <li key={document}>
              <Link to={paths.legal(document)}>{t(`legal.titles.${document}`)}</Link>
            </li>
          ))}
        </ul>
      </nav>
      <p className="container footer-copy">
        © {new Date().getFullYear()} {site.name}. {t('footer.rights')}
      </p>
    </footer>
  );
}
