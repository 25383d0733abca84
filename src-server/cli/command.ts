import { readConfig } from '../config';

/** Option values as parseArgs gives them. */
export type OptionValues = Record<string, string | boolean | undefined>;

/** One CLI command: its help text, its options, and what it does (resolving to an exit code). */
export interface Command {
  summary: string;
  usage: string;
  options: Record<string, { type: 'string' | 'boolean'; short?: string }>;
  /** Lines printed under the usage by `--help`. */
  details?: string;
  run(values: OptionValues, positionals: string[]): Promise<number | undefined>;
}

/** The config, with `--data DIR` over DATA_DIR. */
export function configWith(v: OptionValues) {
  return readConfig({ ...process.env, ...(typeof v.data === 'string' ? { DATA_DIR: v.data } : {}) });
}
