// The site's money format, as the web shows it (src-web/lib/format.ts formatMoney; a test holds
// the two together): the lira sign, tr-TR grouping, two decimals.
const money = new Intl.NumberFormat('tr-TR', {
  style: 'currency',
  currency: 'TRY',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/** An amount in kuruş as the site writes it ("₺1.234,50"). */
export function formatKurus(kurus: number): string {
  return money.format(kurus / 100);
}
