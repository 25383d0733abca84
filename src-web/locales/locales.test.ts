import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ERROR_MESSAGES } from '@contract/errors';
import { FIELD_MESSAGES } from '@contract/schemas';
import { TASK_FIELD_MESSAGES } from '@contract/tasks';
import { describe, expect, it } from 'vitest';
import { resources } from './index';

const dir = join(import.meta.dirname, '.');

function keys(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
}

function leaves(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (typeof value !== 'object' || value === null) return [];
  return Object.values(value).flatMap(leaves);
}

describe('the locale files', () => {
  const en = readdirSync(join(dir, 'en')).sort();
  const tr = readdirSync(join(dir, 'tr')).sort();

  it('have the same namespaces in Turkish and English', () => {
    expect(tr).toEqual(en);
  });

  it.each(en)('%s has exactly the same keys in both languages', (file) => {
    const a = JSON.parse(readFileSync(join(dir, 'en', file), 'utf8'));
    const b = JSON.parse(readFileSync(join(dir, 'tr', file), 'utf8'));
    expect(keys(b).sort()).toEqual(keys(a).sort());
  });

  it.each(en)('%s has no empty texts', (file) => {
    for (const lang of ['en', 'tr']) {
      const texts = leaves(JSON.parse(readFileSync(join(dir, lang, file), 'utf8')));
      expect(texts.filter((t) => t.trim() === '')).toEqual([]);
    }
  });

  it('registers every namespace file with i18next', () => {
    const registered = Object.keys(resources.en)
      .map((ns) => `${ns}.json`)
      .sort();
    expect(registered).toEqual(en);
    expect(Object.keys(resources.tr).sort()).toEqual(Object.keys(resources.en).sort());
  });

  it('translates every error code the server can send', () => {
    for (const lang of ['en', 'tr'] as const) {
      const errors = resources[lang].errors as Record<string, string>;
      expect(Object.keys(ERROR_MESSAGES).filter((code) => !errors[code])).toEqual([]);
    }
  });

  it('translates every field message of the shared schemas', () => {
    for (const lang of ['en', 'tr'] as const) {
      const fields = resources[lang].common.fields as Record<string, string>;
      expect(Object.keys(FIELD_MESSAGES).filter((k) => !fields[k])).toEqual([]);
    }
  });

  it('translates every field message of the task forms (the owner form and the admin form)', () => {
    for (const lang of ['en', 'tr'] as const) {
      const owner = resources[lang].tasks.fields as Record<string, string>;
      const admin = (resources[lang].admin.taskForm as { errors: Record<string, string> }).errors;
      expect(Object.keys(TASK_FIELD_MESSAGES).filter((k) => !owner[k])).toEqual([]);
      expect(Object.keys(TASK_FIELD_MESSAGES).filter((k) => !admin[k])).toEqual([]);
    }
  });
});
