import type { AuditEntryDto, AuditQuery } from '../../contract/audit';
import type { Page } from '../../contract/types';
import type { AppDeps } from '../../deps';
import { pageAudit } from './audit.repository';
import { auditNames } from './audit-names';

/** GET /api/admin/audit: one page of the log, newest first. */
export async function listAudit(deps: Pick<AppDeps, 'db'>, query: AuditQuery): Promise<Page<AuditEntryDto>> {
  const { rows, total } = await pageAudit(deps.db, query);
  const parsed = rows.map((r) => ({ ...r, changes: JSON.parse(r.changes) as AuditEntryDto['changes'] }));
  const names = await auditNames(deps.db, parsed);
  return {
    items: parsed.map((r) => ({
      id: Number(r.id),
      at: r.at,
      actor: r.actor_id
        ? {
            _id: r.actor_id,
            name: r.actor_name,
            email: r.actor_email,
            // no users row at all counts as deleted too
            deleted: r.actor_row === null || r.actor_deleted_at !== null,
          }
        : null,
      action: r.action,
      target: names.target(r),
      changes: r.changes,
      people: Object.fromEntries(
        typeof r.changes.user === 'string' && names.people[r.changes.user]
          ? [[r.changes.user, names.people[r.changes.user]]]
          : [],
      ),
    })),
    total,
    page: query.page,
    limit: query.limit,
    pages: Math.max(1, Math.ceil(total / query.limit)),
  };
}
