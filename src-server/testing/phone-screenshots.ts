// Test-only (never imported by the server).
import sharp from 'sharp';

// Realistic phone screenshots for the duplicate-proof tests. What makes them hard is what makes
// real ones hard: every screenshot of one phone carries the same status bar (clock, signal,
// battery) and navigation bar, every screenshot of one app the same app bar and tab bar, and
// the part that tells two proofs apart (the feed, the list, the board) is what is left between.
// Seven apps, each in a light and a dark theme, each screen seeded: `phoneScreenshot` draws one,
// `alteredCopies` makes the copies a worker sends again.

function random(seed: number) {
  let s = (seed * 2654435761) >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
}

export const APPS = ['store', 'video', 'puzzle', 'social', 'chat', 'bank', 'shop'] as const;
export type App = (typeof APPS)[number];

export interface Screen {
  app: App;
  dark: boolean;
  /** which screen of the app: its content */
  seed: number;
  /** the status bar's clock, "HH:MM" */
  clock?: string;
  /** the battery's level, 0-100 */
  battery?: number;
}

export const WIDTH = 390;
export const HEIGHT = 844;
const STATUS = 44;
const NAV = 30;
const APP_BAR = 56;
const TAB_BAR = 58;

const COLOURS: Record<App, { hue: number; title: string }> = {
  store: { hue: 160, title: 'Play Store' },
  video: { hue: 0, title: 'Videos' },
  puzzle: { hue: 275, title: 'Puzzle Blast' },
  social: { hue: 215, title: 'Socialgram' },
  chat: { hue: 175, title: 'Chats' },
  bank: { hue: 230, title: 'My Bank' },
  shop: { hue: 28, title: 'ShopNow' },
};

const WORDS =
  'lorem ipsum dolor sit amet görev ödül kazan takip et beğen abone ol indir oyna yorum paylaş yeni hızlı kampanya indirim hesap bakiye transfer mesaj merhaba tamam video izle'.split(
    ' ',
  );

function words(r: () => number, n: number) {
  return Array.from({ length: n }, () => WORDS[Math.floor(r() * WORDS.length)]).join(' ');
}

const text = (x: number, y: number, size: number, fill: string, body: string, weight = 'normal') =>
  `<text x="${x}" y="${y}" font-family="DejaVu Sans" font-size="${size}" font-weight="${weight}" fill="${fill}">${body}</text>`;

/** A photo-like picture: a gradient and a few shapes. */
function picture(r: () => number, x: number, y: number, w: number, h: number, id: string) {
  const a = Math.floor(r() * 360);
  const b = (a + 60 + Math.floor(r() * 180)) % 360;
  const parts = [
    `<defs><linearGradient id="${id}" x1="0" y1="0" x2="${r().toFixed(2)}" y2="1"><stop offset="0" stop-color="hsl(${a},70%,${30 + Math.floor(r() * 40)}%)"/><stop offset="1" stop-color="hsl(${b},60%,${30 + Math.floor(r() * 40)}%)"/></linearGradient></defs>`,
    `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="8" fill="url(#${id})"/>`,
  ];
  const shapes = 2 + Math.floor(r() * 3);
  for (let i = 0; i < shapes; i++) {
    const cx = x + r() * w;
    const cy = y + r() * h;
    const size = (0.15 + r() * 0.35) * Math.min(w, h);
    const fill = `hsl(${Math.floor(r() * 360)},${40 + Math.floor(r() * 50)}%,${20 + Math.floor(r() * 65)}%)`;
    parts.push(
      r() < 0.5
        ? `<circle cx="${cx.toFixed(0)}" cy="${cy.toFixed(0)}" r="${(size / 2).toFixed(0)}" fill="${fill}"/>`
        : `<rect x="${(cx - size / 2).toFixed(0)}" y="${(cy - size / 3).toFixed(0)}" width="${size.toFixed(0)}" height="${((size * 2) / 3).toFixed(0)}" fill="${fill}"/>`,
    );
  }
  return parts.join('');
}

/** The content between the app bar and the tab bar: what differs between two screens of one app. */
function content(s: Screen, r: () => number, top: number, bottom: number, fg: string, card: string): string {
  const out: string[] = [];
  const hue = COLOURS[s.app].hue;
  let y = top + 10 - Math.floor(r() * 40);
  let n = 0;
  const id = () => `g${n++}`;
  while (y < bottom) {
    switch (s.app) {
      case 'store': {
        if (r() < 0.25) {
          out.push(picture(r, 12, y, WIDTH - 24, 150, id()));
          y += 162;
        } else {
          out.push(picture(r, 16, y + 8, 60, 60, id()));
          out.push(text(90, y + 30, 16, fg, words(r, 2)));
          out.push(text(90, y + 52, 12, fg, `${(3 + r() * 2).toFixed(1)} ★  ${Math.floor(r() * 90) + 5} MB`));
          out.push(
            `<rect x="${WIDTH - 92}" y="${y + 24}" width="76" height="30" rx="15" fill="hsl(${hue},80%,30%)"/>`,
          );
          y += 80;
        }
        break;
      }
      case 'video': {
        out.push(picture(r, 0, y, WIDTH, 218, id()));
        out.push(`<circle cx="30" cy="${y + 246}" r="16" fill="hsl(${Math.floor(r() * 360)},50%,50%)"/>`);
        out.push(text(56, y + 244, 15, fg, words(r, 4)));
        out.push(text(56, y + 264, 12, fg, `${Math.floor(r() * 900)}B görüntüleme`));
        y += 290;
        break;
      }
      case 'puzzle': {
        out.push(text(20, y + 30, 22, fg, `Skor ${Math.floor(r() * 99999)}`, 'bold'));
        const cell = 56;
        for (let row = 0; row < 6; row++) {
          for (let col = 0; col < 6; col++) {
            const h = [0, 50, 120, 200, 280, 320][Math.floor(r() * 6)];
            out.push(
              `<rect x="${24 + col * (cell + 2)}" y="${y + 50 + row * (cell + 2)}" width="${cell}" height="${cell}" rx="10" fill="hsl(${h},75%,55%)"/>`,
            );
          }
        }
        y += 50 + 6 * (cell + 2) + 20;
        break;
      }
      case 'social': {
        out.push(`<circle cx="32" cy="${y + 24}" r="18" fill="hsl(${Math.floor(r() * 360)},50%,50%)"/>`);
        out.push(text(60, y + 30, 15, fg, words(r, 2), 'bold'));
        out.push(picture(r, 0, y + 50, WIDTH, 300, id()));
        out.push(text(16, y + 376, 13, fg, `${Math.floor(r() * 5000)} beğenme · ${words(r, 3)}`));
        y += 396;
        break;
      }
      case 'chat': {
        const mine = r() < 0.5;
        const w = 120 + Math.floor(r() * 200);
        const lines = 1 + Math.floor(r() * 3);
        const x = mine ? WIDTH - 12 - w : 12;
        out.push(
          `<rect x="${x}" y="${y}" width="${w}" height="${16 + lines * 20}" rx="14" fill="${mine ? `hsl(${hue},55%,45%)` : card}"/>`,
        );
        for (let l = 0; l < lines; l++) out.push(text(x + 12, y + 26 + l * 20, 14, fg, words(r, 3)));
        y += 28 + lines * 20;
        break;
      }
      case 'bank': {
        if (n === 0) {
          out.push(picture(r, 16, y, WIDTH - 32, 170, id()));
          out.push(
            text(36, y + 60, 28, '#ffffff', `₺${Math.floor(r() * 90000)},${Math.floor(r() * 99)}`, 'bold'),
          );
          y += 190;
        } else {
          out.push(`<circle cx="36" cy="${y + 28}" r="20" fill="hsl(${Math.floor(r() * 360)},40%,55%)"/>`);
          out.push(text(68, y + 26, 15, fg, words(r, 2)));
          out.push(text(68, y + 46, 11, fg, `${Math.floor(r() * 28) + 1}.11.2026`));
          out.push(text(WIDTH - 110, y + 34, 15, fg, `−₺${Math.floor(r() * 3000)},00`, 'bold'));
          y += 64;
          n++;
        }
        break;
      }
      case 'shop': {
        for (const col of [0, 1]) {
          const x = 12 + col * ((WIDTH - 36) / 2 + 12);
          const w = (WIDTH - 36) / 2;
          out.push(`<rect x="${x}" y="${y}" width="${w}" height="250" rx="10" fill="${card}"/>`);
          out.push(picture(r, x + 8, y + 8, w - 16, 160, id()));
          out.push(text(x + 10, y + 192, 13, fg, words(r, 2)));
          out.push(text(x + 10, y + 220, 16, `hsl(${hue},80%,45%)`, `₺${Math.floor(r() * 2000)}`, 'bold'));
        }
        y += 262;
        break;
      }
    }
  }
  return out.join('');
}

/** The SVG of one screen. */
export function phoneScreenSvg(s: Screen): string {
  const r = random(s.seed * 31 + APPS.indexOf(s.app) * 7919 + (s.dark ? 104729 : 0));
  const { hue, title } = COLOURS[s.app];
  const bg = s.dark ? '#121212' : '#ffffff';
  const fg = s.dark ? '#e8e8e8' : '#1f1f1f';
  const card = s.dark ? '#2a2a2a' : '#f1f1f1';
  const bar = s.dark ? `hsl(${hue},35%,18%)` : `hsl(${hue},65%,42%)`;
  const clock = s.clock ?? '14:05';
  const battery = s.battery ?? 76;
  const top = STATUS + APP_BAR;
  const bottom = HEIGHT - NAV - TAB_BAR;
  const parts = [
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="${bg}"/>`,
    content(s, r, top, bottom, fg, card),
    // the app's frame: its bar with a title and two icons, its tab bar with five
    `<rect y="${STATUS}" width="${WIDTH}" height="${APP_BAR}" fill="${bar}"/>`,
    text(56, STATUS + 36, 20, '#ffffff', title, 'bold'),
    `<rect x="16" y="${STATUS + 18}" width="22" height="3" fill="#fff"/><rect x="16" y="${STATUS + 26}" width="22" height="3" fill="#fff"/><rect x="16" y="${STATUS + 34}" width="22" height="3" fill="#fff"/>`,
    `<circle cx="${WIDTH - 64}" cy="${STATUS + 28}" r="10" fill="none" stroke="#fff" stroke-width="3"/><circle cx="${WIDTH - 26}" cy="${STATUS + 28}" r="12" fill="#fff"/>`,
    `<rect y="${bottom}" width="${WIDTH}" height="${TAB_BAR}" fill="${s.dark ? '#1c1c1c' : '#fafafa'}"/>`,
    ...[0, 1, 2, 3, 4].map(
      (i) =>
        `<rect x="${WIDTH / 10 + (i * WIDTH) / 5 - 11}" y="${bottom + 10}" width="22" height="22" rx="6" fill="${i === 0 ? `hsl(${hue},70%,45%)` : s.dark ? '#777' : '#888'}"/>${text(WIDTH / 10 + (i * WIDTH) / 5 - 16, bottom + 48, 10, fg, ['Ana', 'Ara', 'Yeni', 'Kitap', 'Profil'][i])}`,
    ),
    // the phone's own bars, the same on every screenshot of this phone
    `<rect width="${WIDTH}" height="${STATUS}" fill="${s.dark ? '#000' : bar}"/>`,
    text(22, 30, 16, '#ffffff', clock, 'bold'),
    ...[0, 1, 2, 3].map(
      (i) =>
        `<rect x="${WIDTH - 120 + i * 6}" y="${26 - i * 3}" width="4" height="${6 + i * 3}" fill="#fff"/>`,
    ),
    `<path d="M ${WIDTH - 84} 22 q 10 -10 20 0" stroke="#fff" stroke-width="3" fill="none"/>`,
    text(WIDTH - 66, 30, 12, '#ffffff', `${battery}%`),
    `<rect x="${WIDTH - 36}" y="17" width="24" height="13" rx="3" fill="none" stroke="#fff" stroke-width="1.5"/>`,
    `<rect x="${WIDTH - 34}" y="19" width="${Math.round((20 * battery) / 100)}" height="9" fill="${battery < 20 ? '#f44' : '#fff'}"/>`,
    `<rect y="${HEIGHT - NAV}" width="${WIDTH}" height="${NAV}" fill="${s.dark ? '#000' : '#f2f2f2'}"/>`,
    `<rect x="${WIDTH / 2 - 67}" y="${HEIGHT - 16}" width="134" height="5" rx="2.5" fill="${s.dark ? '#ddd' : '#222'}"/>`,
  ];
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}">${parts.join('')}</svg>`;
}

/** One screen as a PNG, as the phone saved it. */
export function phoneScreenshot(s: Screen): Promise<Buffer> {
  return sharp(Buffer.from(phoneScreenSvg(s)))
    .png()
    .toBuffer();
}

const STICKER = Buffer.from(
  `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><circle cx="32" cy="32" r="30" fill="#ffd21f" stroke="#333" stroke-width="2"/><circle cx="22" cy="26" r="4" fill="#333"/><circle cx="42" cy="26" r="4" fill="#333"/><path d="M 18 40 q 14 14 28 0" stroke="#333" stroke-width="3" fill="none"/></svg>`,
);

const crop = (png: Buffer, top: number, bottom: number, left = 0, right = 0) =>
  sharp(png)
    .extract({
      left: Math.round(left * WIDTH),
      top: Math.round(top * HEIGHT),
      width: Math.round((1 - left - right) * WIDTH),
      height: Math.round((1 - top - bottom) * HEIGHT),
    })
    .png()
    .toBuffer();

/** The ways a worker sends a screenshot again, each a function of the original screen and its PNG. */
export const ALTERATIONS: [string, (s: Screen, png: Buffer) => Promise<Buffer>][] = [
  ['re-compressed (JPEG quality 45)', (_s, png) => sharp(png).jpeg({ quality: 45 }).toBuffer()],
  ['resized to 70 %', (_s, png) => sharp(png).resize(273).png().toBuffer()],
  ['resized to 180 % (JPEG 85)', (_s, png) => sharp(png).resize(702).jpeg({ quality: 85 }).toBuffer()],
  ['notification bar cropped off', (_s, png) => crop(png, STATUS / HEIGHT, 0)],
  ['cropped 10 % at the top', (_s, png) => crop(png, 0.1, 0)],
  ['cropped 10 % at the bottom', (_s, png) => crop(png, 0, 0.1)],
  ['cropped 5 % at the top and 5 % at the bottom', (_s, png) => crop(png, 0.05, 0.05)],
  ['cropped 3 % of each side and 4 % at the top', (_s, png) => crop(png, 0.04, 0, 0.03, 0.03)],
  ['status bar clock and battery changed', (s) => phoneScreenshot({ ...s, clock: '09:47', battery: 23 })],
  ['brightness +15 %', (_s, png) => sharp(png).modulate({ brightness: 1.15 }).png().toBuffer()],
  ['brightness −15 %', (_s, png) => sharp(png).modulate({ brightness: 0.85 }).png().toBuffer()],
  [
    'a sticker on it',
    (s, png) => {
      const r = random(s.seed + 99);
      return sharp(png)
        .composite([{ input: STICKER, left: 40 + Math.floor(r() * 280), top: 160 + Math.floor(r() * 520) }])
        .png()
        .toBuffer();
    },
  ],
  [
    'all at once: bar cropped, clock changed, resized, JPEG 60',
    async (s) =>
      sharp(await crop(await phoneScreenshot({ ...s, clock: '23:12', battery: 9 }), 0.06, 0.02))
        .resize(300)
        .modulate({ brightness: 1.08 })
        .jpeg({ quality: 60 })
        .toBuffer(),
  ],
];

/** `count` different screens: every app in both themes in turn, each a screen of its own. */
export function differentScreens(count: number): Screen[] {
  return Array.from({ length: count }, (_, i) => ({
    app: APPS[i % APPS.length],
    dark: Math.floor(i / APPS.length) % 2 === 1,
    seed: 1 + Math.floor(i / (2 * APPS.length)) * 2 + (Math.floor(i / APPS.length) % 2),
  }));
}
