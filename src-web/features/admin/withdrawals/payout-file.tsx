import { PAYOUT_FILES, type PayoutFile } from '@contract/payouts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { downloadFile } from '../../../components/admin/export-button';
import { serverErrorText } from '../../../components/admin/server-error';

/** Today in Turkey (UTC+3 all year), as YYYY-MM-DD. */
const turkeyToday = () => new Date(Date.now() + 3 * 3_600_000).toISOString().slice(0, 10);

/**
 * The day's bulk payout files: the withdrawals approved on a day, one file for the bank's bulk
 * EFT upload (IBAN) and one for Papara's mass payment.
 */
export function PayoutFileCard() {
  const { t } = useTranslation(['admin', 'adminLists']);
  const [day, setDay] = useState(turkeyToday);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async (file: PayoutFile) => {
    setBusy(true);
    setError(null);
    try {
      await downloadFile(
        `/admin/withdraws/payouts.csv?day=${encodeURIComponent(day)}&file=${file}`,
        `taskreward-payouts-${file}-${day}.csv`,
      );
    } catch (err) {
      setError(serverErrorText(t, err, 'adminLists:export.failed'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="card payout-file" aria-labelledby="payout-file-title" data-testid="payout-file">
      <h2 id="payout-file-title">{t('payoutFile.title')}</h2>
      <p className="muted small">{t('payoutFile.hint')}</p>
      <div className="payout-file-row">
        <div className="field">
          <label htmlFor="payout-day">{t('payoutFile.day')}</label>
          <input id="payout-day" type="date" value={day} onChange={(e) => setDay(e.target.value)} />
        </div>
        {PAYOUT_FILES.map((file) => (
          <button
            key={file}
            type="button"
            className="btn btn-outline btn-sm"
            disabled={busy || day === ''}
            onClick={() => void run(file)}
            data-testid={`payout-file-${file}`}
          >
            {t(`payoutFile.${file}`)}
          </button>
        ))}
      </div>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
