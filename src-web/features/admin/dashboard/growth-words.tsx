import type { GrowthTrendDto } from '@contract/admin';
import { useTranslation } from 'react-i18next';
import { formatCount } from '../../../components/admin/growth';
import { formatMoney } from '../../../lib/format';

type Metric = 'users' | 'tasks' | 'rewards';

/**
 * A 30-day trend line in a few lines of SVG (no charting library: one polyline, scaled to the
 * largest day). Its words are in the label, for screen readers and for the tooltip.
 */
export function Sparkline({ days, label }: { days: number[]; label: string }) {
  const width = 120;
  const height = 28;
  const max = Math.max(...days, 0);
  const step = days.length > 1 ? width / (days.length - 1) : width;
  const y = (v: number) => (max === 0 ? height - 1 : height - 1 - (v / max) * (height - 2));
  const points = days.map((v, i) => `${(i * step).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
  return (
    <svg
      className="growth-spark"
      viewBox={`0 0 ${width} ${height}`}
      width={width}
      height={height}
      role="img"
      aria-label={label}
      data-testid="growth-spark"
    >
      <title>{label}</title>
      <polyline points={points} fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinejoin="round" />
    </svg>
  );
}

/**
 * A figure's growth in words an operator reads at a glance: how many in the last 30 days and how
 * that compares with the 30 before, as a difference in the figure's own unit (never "%0").
 */
export function GrowthWords({ metric, trend }: { metric: Metric; trend: GrowthTrendDto }) {
  const { t } = useTranslation('admin');
  const show = (v: number) => (metric === 'rewards' ? formatMoney(v) : formatCount(v));
  const diff = Math.round((trend.current - trend.previous) * 100) / 100;
  const headline =
    trend.current === 0
      ? t('growth.noneYet')
      : metric === 'rewards'
        ? t('growth.rewardsLine', { amount: show(trend.current) })
        : t(`growth.${metric}Line`, { count: trend.current, formatted: show(trend.current) });
  const compare =
    trend.previous === 0
      ? trend.current === 0
        ? null
        : t('growth.firstPeriod')
      : diff === 0
        ? t('growth.same')
        : t(diff > 0 ? 'growth.more' : 'growth.fewer', {
            diff: show(Math.abs(diff)),
            previous: show(trend.previous),
          });
  const tone =
    trend.previous === 0 ? (trend.current > 0 ? 'up' : 'flat') : diff > 0 ? 'up' : diff < 0 ? 'down' : 'flat';
  const days = trend.days;
  const chart = t('growth.chart', {
    min: show(Math.min(...days)),
    max: show(Math.max(...days)),
    last: show(days.at(-1) ?? 0),
  });
  return (
    <div className="admin-stat-growth-block" data-testid={`growth-${metric}`}>
      <p className="admin-stat-growth">{headline}</p>
      {compare && <p className={`admin-stat-growth growth-${tone}`}>{compare}</p>}
      <Sparkline days={days} label={chart} />
    </div>
  );
}
