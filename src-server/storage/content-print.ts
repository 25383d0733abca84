/**
 * The fingerprint of a screenshot's content. Screenshots from one phone share its status bar and
 * navigation bar, and screenshots of one app its app bar and tab bar: a fingerprint of the whole
 * picture is mostly those, so different screens of one app looked alike to it. This one leaves a
 * band at the top and at the bottom out (CONTENT_MARGIN of the height, where phones and apps keep
 * their chrome) and a thin strip at each side, and hashes what is left:
 * - `hash`: a 64-bit pHash of the content (the 8 x 8 lowest frequencies of it at 32 x 32): the
 *   lookup key, stored in four indexed 16-bit bands;
 * - `print`: a 256-bit pHash (16 x 16 lowest frequencies at 64 x 64), the finer check, and six
 *   64-bit pHashes of the content's parts (three rows of two), which say which part of two
 *   proofs matched (a sticker, or a crop, changes one part and not the others).
 * A copy cropped at the top or the bottom (the notification bar cut off, up to 10 % of the
 * height) has its content elsewhere in the picture: `probesOf` makes the prints of the picture
 * as if it had been cropped by each of CROP_GUESSES (and as if the stored one had been), and the
 * lookup tries them all; a proof is stored with one, the print of the picture as it is.
 */

/** The part of the height left out at the top and at the bottom, and of the width at each side. */
export const CONTENT_MARGIN = 0.12;
export const SIDE_MARGIN = 0.04;

/**
 * The crops (fractions of the original height taken off at the top and at the bottom) a copy is
 * tried as: 5 % steps up to 10 % in all; a crop between two steps is at most 2.5 % off one of
 * them, which moves a print by a few bits.
 */
export const CROP_GUESSES: readonly (readonly [number, number, number])[] = [
  [0.05, 0, 0],
  [0.1, 0, 0],
  [0, 0.05, 0],
  [0, 0.1, 0],
  [0.05, 0.05, 0],
  [0, 0, 0.03],
  [0.05, 0, 0.03],
];

export interface ContentPrints {
  /** 64-bit pHash of the content, 16 hex digits */
  hash: string;
  /** 256-bit pHash of the content and the 64-bit pHashes of its six parts: 64 + 6 x 16 hex digits */
  print: string;
}

export const PRINT_HEX = 64;
export const PART_HEX = 16;
export const PARTS = 6;

/** A grey picture: one byte a pixel, row by row. */
export interface Grey {
  data: Uint8Array;
  width: number;
  height: number;
}

/** cos((2x + 1) u pi / 2N) for an N-point DCT, [u][x], for the first `keep` frequencies. */
function cosines(size: number, keep: number): Float64Array[] {
  return Array.from({ length: keep }, (_, u) =>
    Float64Array.from({ length: size }, (_, x) => Math.cos(((2 * x + 1) * u * Math.PI) / (2 * size))),
  );
}
const COSINES_32 = cosines(32, 8);
const COSINES_64 = cosines(64, 16);

/** The keep x keep lowest frequencies of a size x size picture (separable DCT-II, rows then columns). */
function lowFrequencies(grey: Float64Array, size: number, table: Float64Array[]): number[] {
  const keep = table.length;
  const rows: Float64Array[] = [];
  for (let y = 0; y < size; y++) {
    const row = new Float64Array(keep);
    for (let u = 0; u < keep; u++) {
      let sum = 0;
      const t = table[u];
      for (let x = 0; x < size; x++) sum += grey[y * size + x] * t[x];
      row[u] = sum;
    }
    rows.push(row);
  }
  const out: number[] = [];
  for (let v = 0; v < keep; v++) {
    for (let u = 0; u < keep; u++) {
      let sum = 0;
      for (let y = 0; y < size; y++) sum += rows[y][u] * table[v][y];
      out.push(sum);
    }
  }
  return out;
}

/** One bit per frequency, set when above their median (the constant term left out of it), as hex. */
function medianBits(coefficients: number[]): string {
  const ac = coefficients.slice(1).sort((a, b) => a - b);
  const median = ac[Math.floor(ac.length / 2)];
  let hex = '';
  for (let i = 0; i < coefficients.length; i += 4) {
    let nibble = 0;
    for (let b = 0; b < 4; b++) nibble = (nibble << 1) | (coefficients[i + b] > median ? 1 : 0);
    hex += nibble.toString(16);
  }
  return hex;
}

/**
 * The rectangle [x0, x1) x [y0, y1) (fractions of the picture) averaged down to size x size:
 * each output pixel the mean of the source pixels it covers, partly covered ones weighted.
 */
export function resample(g: Grey, box: { x0: number; x1: number; y0: number; y1: number }, size: number) {
  const out = new Float64Array(size * size);
  const sx0 = box.x0 * g.width;
  const sy0 = box.y0 * g.height;
  const stepX = ((box.x1 - box.x0) * g.width) / size;
  const stepY = ((box.y1 - box.y0) * g.height) / size;
  // per output column, the source columns and their weights, computed once
  const columns: { from: number; weights: number[] }[] = [];
  for (let x = 0; x < size; x++) columns.push(span(sx0 + x * stepX, sx0 + (x + 1) * stepX, g.width));
  for (let y = 0; y < size; y++) {
    const rows = span(sy0 + y * stepY, sy0 + (y + 1) * stepY, g.height);
    for (let x = 0; x < size; x++) {
      const col = columns[x];
      let sum = 0;
      let weight = 0;
      for (let j = 0; j < rows.weights.length; j++) {
        const base = (rows.from + j) * g.width + col.from;
        for (let i = 0; i < col.weights.length; i++) {
          const w = rows.weights[j] * col.weights[i];
          sum += g.data[base + i] * w;
          weight += w;
        }
      }
      out[y * size + x] = weight > 0 ? sum / weight : 0;
    }
  }
  return out;
}

/** The source pixels from a to b (clamped to the picture) and how much of each is covered. */
function span(a: number, b: number, limit: number) {
  const lo = Math.max(0, Math.min(limit - 1, a));
  const hi = Math.max(lo + 1e-6, Math.min(limit, b));
  const from = Math.floor(lo);
  const weights: number[] = [];
  for (let p = from; p < hi; p++) weights.push(Math.min(p + 1, hi) - Math.max(p, lo));
  return { from, weights };
}

/** The prints of the content between y0 and y1 (fractions of the picture's height). */
function printsOfBox(g: Grey, box: { x0: number; x1: number; y0: number; y1: number }): ContentPrints {
  const { y0, y1 } = box;
  const hash = medianBits(lowFrequencies(resample(g, box, 32), 32, COSINES_32));
  let print = medianBits(lowFrequencies(resample(g, box, 64), 64, COSINES_64));
  // three rows of two: top left, top right, middle left, ...
  const { x0, x1 } = box;
  for (let p = 0; p < PARTS; p++) {
    const row = Math.floor(p / 2);
    const col = p % 2;
    const part = {
      x0: x0 + ((x1 - x0) * col) / 2,
      x1: x0 + ((x1 - x0) * (col + 1)) / 2,
      y0: y0 + ((y1 - y0) * row) / 3,
      y1: y0 + ((y1 - y0) * (row + 1)) / 3,
    };
    print += medianBits(lowFrequencies(resample(g, part, 32), 32, COSINES_32));
  }
  return { hash, print };
}

/** The prints a proof is stored with: its content as the picture is. */
export function contentPrints(g: Grey): ContentPrints {
  return printsOfBox(g, { x0: SIDE_MARGIN, x1: 1 - SIDE_MARGIN, y0: CONTENT_MARGIN, y1: 1 - CONTENT_MARGIN });
}

/**
 * The prints to look a new proof up with: as it is, as if it were a copy cropped by each of
 * CROP_GUESSES (its content then starts higher and ends lower in it), and as if it were the
 * original of a stored copy so cropped. The first is contentPrints.
 */
export function probesOf(g: Grey): ContentPrints[] {
  const m = CONTENT_MARGIN;
  const sm = SIDE_MARGIN;
  const out = [contentPrints(g)];
  for (const [t, b, s] of CROP_GUESSES) {
    const kept = 1 - t - b;
    const wide = 1 - 2 * s;
    // this picture a copy so cropped: the original's content box in this picture's terms
    out.push(
      printsOfBox(g, {
        x0: (sm - s) / wide,
        x1: (1 - sm - s) / wide,
        y0: (m - t) / kept,
        y1: (1 - m - t) / kept,
      }),
    );
    // a stored copy so cropped: its content box in this picture's terms
    out.push(
      printsOfBox(g, {
        x0: s + sm * wide,
        x1: s + (1 - sm) * wide,
        y0: t + m * kept,
        y1: t + (1 - m) * kept,
      }),
    );
  }
  return out;
}
