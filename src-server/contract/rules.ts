import { z } from 'zod';
import type { ErrorCode } from './errors';

/** The first broken rule of a body checked in order: its code, its field and its message. */
export interface RuleProblem {
  code: ErrorCode;
  /** dotted for a nested field: `accountDetails.fullName` */
  field: string;
  message: string;
  /** values interpolated into the message (the web interpolates its own translation with them) */
  params?: Record<string, string>;
}

export type RuleResult<T> = { ok: true; value: T } | { ok: false; problem: RuleProblem };

/**
 * A zod schema from a function that checks a body's rules in the order its form reports them
 * (the same function the web runs for comfort). A broken rule is the schema's one issue, and
 * carries the rule's own error code so the server answers with it rather than a generic
 * validation_error.
 */
export function ruleSchema<T>(checkRules: (body: unknown) => RuleResult<T>) {
  return z.unknown().transform((body, ctx): T => {
    const checked = checkRules(body);
    if (checked.ok) return checked.value;
    ctx.addIssue({
      code: 'custom',
      message: checked.problem.message,
      path: checked.problem.field.split('.'),
      params: { problem: checked.problem },
    });
    return z.NEVER;
  });
}

function isRuleProblem(v: unknown): v is RuleProblem {
  return (
    typeof v === 'object' &&
    v !== null &&
    'code' in v &&
    typeof v.code === 'string' &&
    'field' in v &&
    typeof v.field === 'string' &&
    'message' in v &&
    typeof v.message === 'string'
  );
}

/** The broken rule behind a failed parse of a ruleSchema, if that is what failed. */
export function ruleProblemOf(error: z.ZodError): RuleProblem | null {
  const first = error.issues[0];
  if (first?.code !== 'custom') return null;
  const problem: unknown = first.params?.problem;
  return isRuleProblem(problem) ? problem : null;
}
