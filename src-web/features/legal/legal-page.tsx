import type { LegalDocument, LegalDocumentDto } from '@contract/legal';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { getData } from '../../lib/api';
import { formatDate } from '../../lib/format';
import { currentLanguage } from '../../lib/i18n';
import { usePageTitle } from '../../lib/page-title';
import { LegalText } from './legal-text';

export const legalQueryKey = (document: LegalDocument) => ['legal', document] as const;

/** A public legal page (/terms, /privacy, /kvkk) in the reader's language, as the admin wrote it. */
export function LegalPage({ document }: { document: LegalDocument }) {
  const { t } = useTranslation();
  const title = t(`legal.titles.${document}`);
  usePageTitle(title);
  const lang = currentLanguage();
  const { data, isError } = useQuery({
    queryKey: legalQueryKey(document),
    queryFn: () => getData<LegalDocumentDto>(`/settings/legal/${document}`),
    staleTime: 5 * 60_000,
  });
  return (
    <div className="container narrow legal-page">
      <article className="card" data-testid={`legal-${document}`}>
        <h1>{title}</h1>
        {data?.template[lang] && (
          <p className="notice notice-warning" data-testid="legal-template">
            {t('legal.template')}
          </p>
        )}
        {isError && (
          <p className="notice notice-error" role="alert">
            {t('legal.loadError')}
          </p>
        )}
        {/* the text's own first heading repeats the page title; the h1 above names the page */}
        {data && <LegalText text={data[lang]} />}
        {data?.updatedAt && (
          <p className="muted">{t('legal.updated', { date: formatDate(data.updatedAt, lang) })}</p>
        )}
      </article>
    </div>
  );
}
