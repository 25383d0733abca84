import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { validateConfiguration } from 'app-builder-lib/out/util/config/config';
import type { Configuration } from 'electron-builder';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// js-yaml (electron-builder's own YAML reader) ships no types
const yaml = createRequire(import.meta.url)('js-yaml') as { load(text: string): unknown };
const config = yaml.load(readFileSync(join(root, 'build/electron-builder.yml'), 'utf8')) as Configuration;

describe('build/electron-builder.yml', () => {
  it("passes electron-builder's own schema", async () => {
    const debug = { add: () => {}, isEnabled: false } as unknown as Parameters<
      typeof validateConfiguration
    >[1];
    await expect(validateConfiguration(config, debug)).resolves.toBeUndefined();
    await expect(
      validateConfiguration({ ...config, linux: { tagret: 'deb' } } as Configuration, debug),
    ).rejects.toThrow(/Invalid configuration object/);
  });

  it('packages Linux (AppImage, deb), Windows (nsis) and macOS (dmg), with the single binary inside', () => {
    expect(config.linux?.target).toEqual(['AppImage', 'deb']);
    expect(config.win?.target).toEqual(['nsis']);
    expect(config.mac?.target).toEqual(['dmg']);
    expect(config.extraMetadata?.main).toBe('dist/desktop/main.cjs');
    expect(JSON.stringify(config.extraResources)).toContain('dist/binary/');
    expect(config.npmRebuild).toBe(false);
  });
});
