import { AUDIT_ACTIONS, AUDIT_TARGETS, type AuditAction, type AuditTarget } from '@contract/audit';

/** The audit screen's filters, as the address keeps them. */
export interface AuditListState {
  page: number;
  actor: string;
  action: AuditAction | '';
  targetType: AuditTarget | '';
  targetId: string;
  from: string;
  to: string;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const ID = /^[0-9a-f]{24}$/;

export function readAuditList(params: URLSearchParams): AuditListState {
  const page = Number.parseInt(params.get('page') ?? '1', 10);
  const day = (v: string | null) => (v && DAY.test(v) ? v : '');
  return {
    page: Number.isSafeInteger(page) && page >= 1 ? page : 1,
    actor: ID.test(params.get('actor') ?? '') ? (params.get('actor') as string) : '',
    action: AUDIT_ACTIONS.find((a) => a === params.get('action')) ?? '',
    targetType: AUDIT_TARGETS.find((a) => a === params.get('targetType')) ?? '',
    targetId: ID.test(params.get('targetId') ?? '') ? (params.get('targetId') as string) : '',
    from: day(params.get('from')),
    to: day(params.get('to')),
  };
}

/** The address and the API take the same parameters; empty ones are left out. */
export function auditSearch(state: AuditListState): string {
  const out = new URLSearchParams();
  for (const [key, value] of Object.entries(state)) {
    if (key === 'page' ? value !== 1 : value !== '') out.set(key, String(value));
  }
  return out.toString();
}

export const isReversed = (s: Pick<AuditListState, 'from' | 'to'>) =>
  s.from !== '' && s.to !== '' && s.from > s.to;
