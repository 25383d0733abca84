import type { FlagDto } from '@contract/fraud';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { paths } from '../../app/paths';
import { useIsSelf } from '../../lib/auth';
import { formatDateTime } from '../../lib/format';
import { DismissFlag } from './dismiss-flag';
import { ACCOUNT_KINDS, sortFlags } from './flags-api';
import { RelatedAccounts } from './related-accounts';

/**
 * An item's fraud signals, open ones first: the kind, the explanation in the
 * reader's language, what it relates to (other accounts, the task), who dismissed it and why,
 * or "Dismiss" with a note. `ownerId` is the account the item belongs to: its linked accounts
 * name the related ones, and an admin's own item is another admin's to judge. `extra` adds what
 * a screen shows for a kind (the review screen's side-by-side duplicate).
 */
export function FlagList({
  flags,
  ownerId,
  extra,
}: {
  flags: readonly FlagDto[];
  ownerId: string;
  extra?(flag: FlagDto): ReactNode;
}) {
  const { t, i18n } = useTranslation('adminFraud');
  const own = useIsSelf()(ownerId);
  const lang = i18n.resolvedLanguage === 'en' ? 'en' : 'tr';
  return (
    <ul className="flag-list" data-testid="flag-list">
      {sortFlags(flags).map((f) => {
        const kind = t(`kinds.${f.kind}`);
        return (
          <li
            key={f._id}
            className={`flag-item${f.dismissed ? ' is-dismissed' : ''}`}
            data-testid="flag"
            data-kind={f.kind}
            data-dismissed={f.dismissed ? 'true' : 'false'}
          >
            <div className="flag-head">
              <strong className="flag-kind">
                <span aria-hidden="true">⚑ </span>
                {kind}
              </strong>
              {f.dismissed && <span className="badge badge-muted">{t('dismissed')}</span>}
              <span className="muted small">{formatDateTime(f.createdAt)}</span>
            </div>
            <p className="flag-message" data-testid="flag-message">
              {f.messages[lang] || f.message}
            </p>
            {ACCOUNT_KINDS.includes(f.kind) && <RelatedAccounts ownerId={ownerId} ids={f.related} />}
            {f.kind === 'too_fast' && f.related[0] && (
              <Link className="small" to={paths.adminTaskEdit(f.related[0])} data-testid="flag-task-link">
                {t('related.taskSettings')}
              </Link>
            )}
            {extra?.(f)}
            {f.dismissed ? (
              <p className="flag-dismissed small" data-testid="flag-dismissed-note">
                {t('dismissedBy', {
                  name: f.dismissedBy?.name || t('someone'),
                  date: formatDateTime(f.dismissedAt),
                })}{' '}
                <q className="al-break">{f.dismissNote}</q>
              </p>
            ) : own ? (
              <p className="muted small">{t('ownItem')}</p>
            ) : (
              <DismissFlag flag={f} label={kind} />
            )}
          </li>
        );
      })}
    </ul>
  );
}
