// Test-only (never imported by the server).
import sharp from 'sharp';

// Generated phone screenshots: a status bar, an app bar, cards of text lines, buttons and an
// avatar, laid out by a seeded random generator, so each seed is a different screen.
function random(seed: number) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
}

export function screenshotSvg(seed: number, width = 390, height = 844): string {
  const r = random(seed * 7919 + 17);
  const hue = Math.floor(r() * 360);
  const parts: string[] = [
    `<rect width="${width}" height="${height}" fill="hsl(${hue},20%,${92 + Math.floor(r() * 6)}%)"/>`,
    `<rect width="${width}" height="${44 + Math.floor(r() * 30)}" fill="hsl(${hue},60%,${30 + Math.floor(r() * 30)}%)"/>`,
  ];
  let y = 90 + Math.floor(r() * 40);
  while (y < height - 60) {
    const cardHeight = 60 + Math.floor(r() * 160);
    const light = 80 + Math.floor(r() * 20);
    parts.push(
      `<rect x="12" y="${y}" width="${width - 24}" height="${cardHeight}" rx="10" fill="hsl(${(hue + Math.floor(r() * 120)) % 360},${Math.floor(r() * 50)}%,${light}%)"/>`,
    );
    if (r() < 0.5) {
      parts.push(`<circle cx="44" cy="${y + 30}" r="18" fill="hsl(${Math.floor(r() * 360)},50%,45%)"/>`);
    }
    for (let line = y + 16; line < y + cardHeight - 14; line += 16) {
      const w = 80 + Math.floor(r() * (width - 140));
      parts.push(
        `<rect x="${r() < 0.5 ? 72 : 28}" y="${line}" width="${w}" height="8" fill="hsl(0,0%,${Math.floor(r() * 40)}%)"/>`,
      );
    }
    if (r() < 0.4) {
      parts.push(
        `<rect x="${width - 130}" y="${y + cardHeight - 40}" width="100" height="28" rx="14" fill="hsl(${Math.floor(r() * 360)},70%,40%)"/>`,
      );
    }
    y += cardHeight + 10 + Math.floor(r() * 30);
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${parts.join('')}</svg>`;
}

/** A generated phone screenshot as a PNG: each seed a different screen of the same kind of app. */
export const screenshot = (seed: number) =>
  sharp(Buffer.from(screenshotSvg(seed)))
    .png()
    .toBuffer();
