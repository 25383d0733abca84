import {
  LEGAL_DOCUMENTS,
  type LegalDocument,
  type LegalDocumentDto,
  MAX_LEGAL_TEXT_LENGTH,
} from '@contract/legal';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { paths } from '../../../app/paths';
import { Skeleton } from '../../../components/skeleton';
import { ApiError, getData } from '../../../lib/api';
import { errorText, fieldTexts } from '../../../lib/errors';
import { SettingsInput } from './settings-input';
import { SettingsSection } from './settings-section';
import { useFlash } from './use-flash';

const LANGS = ['tr', 'en'] as const;
// the same cache entry as the public page's, so a save shows there at once
const key = (document: LegalDocument) => ['legal', document] as const;

/** One legal document's two texts, with a badge for a language still on its template. */
function LegalDocumentForm({ document }: { document: LegalDocument }) {
  const { t } = useTranslation('admin');
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: key(document),
    queryFn: ({ signal }) => getData<LegalDocumentDto>(`/settings/legal/${document}`, { signal }),
    staleTime: 0,
    refetchOnMount: 'always',
  });
  const [values, setValues] = useState<{ tr: string; en: string } | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [success, flash] = useFlash();
  useEffect(() => {
    if (query.data && values === null) setValues({ tr: query.data.tr, en: query.data.en });
  }, [query.data, values]);
  const save = useMutation({
    mutationFn: (body: { tr?: string; en?: string }) =>
      getData<LegalDocumentDto>(`/settings/legal/${document}`, { method: 'PUT', body }),
    onSuccess: (data) => {
      queryClient.setQueryData(key(document), data);
      setValues({ tr: data.tr, en: data.en });
      setErrors({});
      setError(null);
      flash(t('settings.saved'));
    },
    onError: (err) => {
      const fields = err instanceof ApiError ? fieldTexts(t, err.errors) : {};
      setErrors(fields);
      setError(errorText(t, err, 'admin:legalSettings.saveFailed'));
    },
  });
  const title = t(`common:legal.titles.${document}`);
  if (!values || !query.data) return <Skeleton layout="page" />;
  return (
    <SettingsSection
      id={`legal-${document}`}
      title={title}
      success={success}
      error={error}
      pending={save.isPending}
      onSubmit={() => {
        // only the languages edited: saving the Turkish text leaves the English one on its
        // template; saving with no edit accepts both texts as shown
        const edited = LANGS.filter((lang) => values[lang] !== query.data[lang]);
        const sent = edited.length > 0 ? edited : LANGS;
        save.mutate(Object.fromEntries(sent.map((lang) => [lang, values[lang]])));
      }}
    >
      <p className="muted small">
        <Link to={paths.legal(document)} target="_blank" rel="noopener">
          {t('legalSettings.view', { title })}
        </Link>
      </p>
      {LANGS.map((lang) => (
        <div key={lang}>
          {query.data.template[lang] && (
            <p className="notice notice-warning" data-testid={`legal-${document}-${lang}-template`}>
              {t('legalSettings.template')}
            </p>
          )}
          <SettingsInput
            name={`legal-${document}-${lang}`}
            multiline
            label={t(`legalSettings.text.${lang}`)}
            hint={t('legalSettings.hint', { max: MAX_LEGAL_TEXT_LENGTH.toLocaleString() })}
            value={values[lang]}
            error={errors[lang]}
            onValue={(v) => setValues((old) => (old ? { ...old, [lang]: v } : old))}
          />
        </div>
      ))}
    </SettingsSection>
  );
}

/** The legal tab: terms of use, privacy policy and the KVKK notice, each in Turkish and English. */
export function LegalSettings() {
  return (
    <>
      {LEGAL_DOCUMENTS.map((document) => (
        <LegalDocumentForm key={document} document={document} />
      ))}
    </>
  );
}
