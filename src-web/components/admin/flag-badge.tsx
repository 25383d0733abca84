import type { FlagDto } from '@contract/fraud';
import { useTranslation } from 'react-i18next';
import { openFlags } from './flags-api';

/**
 * The open fraud signals of an item as a badge: a flag mark and the kind (or how
 * many), in words, never colour alone. Its accessible name lists every kind. With `onOpen` it is
 * a button that shows them; nothing at all when every flag is dismissed.
 */
export function FlagBadge({ flags, onOpen }: { flags: readonly FlagDto[] | undefined; onOpen?(): void }) {
  const { t } = useTranslation('adminFraud');
  const open = openFlags(flags);
  if (open.length === 0) return null;
  const kinds = [...new Set(open.map((f) => f.kind))];
  const kind = open.length === 1 ? t(`kinds.${open[0]?.kind}`) : '';
  // a duplicate says how close it is: a reviewer reads 98 % and 61 % differently
  const similarity = open.length === 1 ? open[0]?.similarity : null;
  const text =
    open.length !== 1
      ? t('badge.count', { count: open.length })
      : similarity !== null && similarity !== undefined
        ? t('badge.similar', { kind, similarity })
        : kind;
  const label =
    open.length === 1
      ? t('badge.labelOne', { text })
      : t('badge.labelMany', { text, kinds: kinds.map((k) => t(`kinds.${k}`)).join(', ') });
  const content = (
    <>
      <span aria-hidden="true">⚑</span>
      <span>{text}</span>
    </>
  );
  const data = { 'data-testid': 'flag-badge', 'data-count': open.length, 'data-kinds': kinds.join(' ') };
  if (onOpen) {
    return (
      <button
        type="button"
        className="badge badge-flag badge-flag-button"
        onClick={onOpen}
        aria-label={label}
        {...data}
      >
        {content}
      </button>
    );
  }
  return (
    <span className="badge badge-flag" {...data}>
      <span aria-hidden="true" className="badge-flag-text">
        {content}
      </span>
      <span className="sr-only">{label}</span>
    </span>
  );
}
