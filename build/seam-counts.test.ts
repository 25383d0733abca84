import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// The seams between HTTP and the services that are closed stay closed: a new route that reads
// its body without a contract schema, a reply written by hand, a service reaching into http/ or
// a cast of a task's enum column makes this fail. build/seam-counts.mjs says where.
const script = join(import.meta.dirname, 'seam-counts.mjs');

function counts(): Record<string, number> {
  return JSON.parse(execFileSync(process.execPath, [script, '--json'], { encoding: 'utf8' })).numbers;
}

describe('seams between HTTP and the services', () => {
  const numbers = counts();

  it.each([
    'JSON routes without a zod body schema (anyObject)',
    'feature files taking a raw body (unknown)',
    'hand-written success envelopes (objects)',
    'success envelopes built as text',
    'non-route feature files importing http/',
    'files outside http/ importing http/app-error',
    'row types declared in http/env.ts',
    'casts of task enum columns',
    'module-level singletons outside deps (file store, task-list cache)',
  ])('%s: 0', (name) => {
    expect(numbers[name]).toBe(0);
  });

  it('finds one place where a task write forgets the list', () => {
    expect(numbers['bumpTaskListVersion calls at task writes']).toBe(1);
    expect(numbers['task-list cache clears at task writes']).toBe(1);
  });

  it('reads the routes it counts', () => {
    expect(numbers['JSON body reads in routes']).toBeGreaterThan(20);
  });
});
