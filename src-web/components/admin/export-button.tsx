import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, getToken } from '../../lib/api';
import { serverErrorText } from './server-error';

type ExportKind = 'submissions' | 'withdraws' | 'users';

/** The file name the server gave, or a plain one. */
function fileName(res: Response, fallback: string): string {
  const match = /filename="([^"]+)"/.exec(res.headers.get('Content-Disposition') ?? '');
  return match?.[1] ?? fallback;
}

/**
 * Fetches an admin file with the bearer token and hands it to the browser as a download (the
 * token rules out a plain link); a refusal is thrown as the API's error.
 */
export async function downloadFile(path: string, fallback: string): Promise<void> {
  const token = getToken();
  const res = await fetch(`/api${path}`, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  if (!res.ok) {
    const body = (await res.json().catch(() => null)) as { error?: { code: string; message: string } } | null;
    throw new ApiError(res.status, body?.error?.code ?? 'internal', body?.error?.message ?? res.statusText);
  }
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName(res, fallback);
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

async function download(kind: ExportKind, apiQuery: string, format: 'excel-tr' | 'rfc4180', lang: string) {
  const params = new URLSearchParams(apiQuery.replace(/^\?/, ''));
  params.delete('page');
  params.delete('limit');
  params.set('format', format);
  params.set('lang', lang.startsWith('tr') ? 'tr' : 'en');
  await downloadFile(`/admin/${kind}/export.csv?${params}`, `taskreward-${kind}.csv`);
}

/**
 * The list screen's download buttons: the rows matching its current filters (every page) as
 * CSV for Excel set to Turkish, or as plain comma-separated CSV.
 */
export function ExportButtons({ kind, apiQuery }: { kind: ExportKind; apiQuery: string }) {
  const { t, i18n } = useTranslation('adminLists');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async (format: 'excel-tr' | 'rfc4180') => {
    setBusy(true);
    setError(null);
    try {
      await download(kind, apiQuery, format, i18n.language);
    } catch (err) {
      setError(serverErrorText(t, err, 'export.failed'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="export-buttons" data-testid={`${kind}-export`}>
      <button
        type="button"
        className="btn btn-outline btn-sm"
        disabled={busy}
        onClick={() => void run('excel-tr')}
        data-testid={`${kind}-export-excel`}
      >
        {busy ? t('export.busy') : t('export.excel')}
      </button>
      <button
        type="button"
        className="btn btn-ghost btn-sm"
        disabled={busy}
        onClick={() => void run('rfc4180')}
        data-testid={`${kind}-export-plain`}
      >
        {t('export.plain')}
      </button>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
