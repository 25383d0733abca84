import type { TestProject } from 'vitest/node';
import { createTemplateDatabase, dropDatabase, testDatabaseUrl } from '../db/test-databases';

declare module 'vitest' {
  export interface ProvidedContext {
    pgTemplate: string | null;
  }
}

/**
 * With TEST_DATABASE_URL, the run's template database (migrated once) that every test app clones;
 * dropped at the end. Without it, nothing: the tests run on SQLite.
 */
export default async function setup(project: TestProject) {
  const url = testDatabaseUrl();
  if (!url) {
    project.provide('pgTemplate', null);
    return;
  }
  const template = await createTemplateDatabase(url);
  project.provide('pgTemplate', template);
  return async () => {
    await dropDatabase(url, template);
  };
}
