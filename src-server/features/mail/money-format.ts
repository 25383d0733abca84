// The site's money format, as the web shows it (src-web/lib/format.ts formatMoney; a test holds
// the two together): the lira sign, tr-TR grouping, two decimals. Made at the first mail that
// needs it, not when the server loads: building a Turkish currency format reads ICU's locale
// data, about 45 ms that every start paid before its first answer.
let money: Intl.NumberFormat | undefined;

/** An amount in kuruş as the site writes it ("₺1.234,50"). */
export function formatKurus(kurus: number): string {
  money ??= new Intl.NumberFormat('tr-TR', {
    style: 'currency',
    currency: 'TRY',
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  });
  return money.format(kurus / 100);
}
