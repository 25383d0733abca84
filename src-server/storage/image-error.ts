/** Why an image was refused: not an allowed format, too many pixels, or damaged. */
export class ImageError extends Error {
  constructor(readonly reason: 'type' | 'too_big' | 'unreadable') {
    super(`image refused: ${reason}`);
  }
}
