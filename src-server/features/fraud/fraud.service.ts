import type { FlagDto, FlagKind, LinkedAccountDto, LinkedAccountsDto } from '../../contract/fraud';
import { nowIso } from '../../db/ids';
import { textList } from '../../db/json';
import type { AppDeps } from '../../deps';
import { fail } from '../../errors';
import { recordAudit } from '../audit/audit.repository';
import { dismissFlagRow, type FlagRow, findFlag, flagsOn, linkedAccounts } from './fraud.repository';

type Deps = Pick<AppDeps, 'db' | 'clock'>;

export function toFlagDto(row: FlagRow): FlagDto {
  return {
    _id: row._id,
    kind: row.kind as FlagKind,
    itemType: row.item_type,
    itemId: row.item_id,
    message: row.message_en,
    messages: { en: row.message_en, tr: row.message_tr },
    related: textList(row.related),
    dismissed: row.dismissed_at !== null,
    dismissedAt: row.dismissed_at,
    dismissedBy: row.dismissed_by ? { _id: row.dismissed_by, name: row.dismissed_by_name ?? '' } : null,
    dismissNote: row.dismiss_note,
    createdAt: row.created_at,
    similarity: row.similarity ?? null,
  };
}

/**
 * Admin replies only: each item with its own flags and its account's (shared device, address
 * burst), in one query for the whole page.
 */
export async function withFlags<T extends { _id: string; user: { _id: string } }>(
  deps: Pick<AppDeps, 'db'>,
  items: T[],
): Promise<(T & { flags: FlagDto[] })[]> {
  const rows = await flagsOn(
    deps.db,
    items.flatMap((i) => [i._id, i.user._id]),
  );
  const byItem = new Map<string, FlagDto[]>();
  for (const row of rows) {
    const list = byItem.get(row.item_id) ?? [];
    list.push(toFlagDto(row));
    byItem.set(row.item_id, list);
  }
  return items.map((i) => ({
    ...i,
    flags: [...(byItem.get(i._id) ?? []), ...(byItem.get(i.user._id) ?? [])],
  }));
}

/**
 * PUT /api/admin/flags/{id}/dismiss: the flag stays, marked dismissed with the admin's note, and
 * the audit log says who did it, in one transaction. A flag on the admin's own item is another
 * admin's to judge; a flag dismissed already is a 409 (two admins at once: one wins).
 */
export async function dismissFlag(deps: Deps, adminId: string, id: string, note: string): Promise<FlagDto> {
  const flag = await findFlag(deps.db, id);
  if (!flag) throw fail.notFound('flag_not_found');
  if (flag.user_id === adminId) throw fail.forbidden('own_item');
  await deps.db.transaction().execute(async (trx) => {
    const at = nowIso(deps.clock);
    if (!(await dismissFlagRow(trx, id, { adminId, note, at }))) throw fail.conflict('flag_dismissed');
    await recordAudit(trx, {
      actorId: adminId,
      action: 'flag.dismiss',
      targetType: flag.item_type,
      targetId: flag.item_id,
      changes: { flag: id, kind: flag.kind, note },
      at,
    });
  });
  return toFlagDto((await findFlag(deps.db, id))!);
}

/**
 * The accounts linked to one (GET /api/admin/users/{id}/linked, after the caller found the
 * account), each once with every way it is linked.
 */
export async function linkedAccountsOf(deps: Deps, userId: string): Promise<LinkedAccountsDto> {
  const accounts = new Map<string, LinkedAccountDto>();
  for (const row of await linkedAccounts(deps.db, userId)) {
    const account = accounts.get(row._id) ?? {
      _id: row._id,
      name: row.name,
      email: row.email,
      status: row.status,
      deleted: row.deleted_at !== null,
      createdAt: row.created_at,
      links: [],
    };
    if (!account.links.some((l) => l.via === row.via && l.detail === row.detail)) {
      account.links.push({ via: row.via, detail: row.detail });
    }
    accounts.set(row._id, account);
  }
  const flags = (await flagsOn(deps.db, [userId])).map(toFlagDto);
  return { accounts: [...accounts.values()], flags };
}
