// Draws the app's PNG icons (a white check on the brand colour) so installs work without binary files in git.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PNG } from 'pngjs';

function icon(size) {
  const png = new PNG({ width: size, height: size });
  const r = size * 0.18;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const i = (y * size + x) * 4;
      // rounded-square mask
      const dx = Math.max(r - x, x - (size - 1 - r), 0);
      const dy = Math.max(r - y, y - (size - 1 - r), 0);
      const inside = dx * dx + dy * dy <= r * r;
      // check mark: two thick strokes
      const u = x / size;
      const v = y / size;
      const d1 = Math.abs(v - (0.52 + (u - 0.28) * 0.9)) < 0.07 && u > 0.26 && u < 0.45;
      const d2 = Math.abs(v - (0.69 - (u - 0.43) * 0.95)) < 0.07 && u > 0.41 && u < 0.75;
      const white = d1 || d2;
      png.data[i] = white ? 255 : 79;
      png.data[i + 1] = white ? 255 : 70;
      png.data[i + 2] = white ? 255 : 229;
      png.data[i + 3] = inside ? 255 : 0;
    }
  }
  return PNG.sync.write(png);
}

export function writeIcons(dir) {
  for (const size of [192, 512]) {
    const file = join(dir, `icon-${size}.png`);
    if (!existsSync(file)) writeFileSync(file, icon(size));
  }
}
