import { MAX_PROOF_BYTES } from '@contract/constants';

/** Why a chosen proof file is refused before upload; the keys are in the errors namespace. */
export type ProofRefusal = 'file_type' | 'file_too_large' | 'proof_required';

const TYPES = new Set(['image/png', 'image/jpeg', 'image/jpg', 'image/pjpeg']);
const EXTENSIONS = /\.(png|jpe?g)$/i;

/** The name and browser type first: PNG, JPG or JPEG only, at most 5 MB. */
export function checkProofFile(
  file: { name: string; type: string; size: number } | null,
): ProofRefusal | null {
  if (!file) return 'proof_required';
  const typeOk = file.type ? TYPES.has(file.type.toLowerCase()) : EXTENSIONS.test(file.name);
  if (!typeOk || !EXTENSIONS.test(file.name)) return 'file_type';
  if (file.size > MAX_PROOF_BYTES) return 'file_too_large';
  if (file.size === 0) return 'file_type';
  return null;
}

/** Whether the first bytes are a PNG or a JPEG, as the server judges them (a renamed text file is not). */
export function looksLikeImage(head: Uint8Array): boolean {
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (head.length >= png.length && png.every((b, i) => head[i] === b)) return true;
  return head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff;
}

/** Both checks on a real File: its name, type and size, then its first bytes. */
export async function refuseProof(file: File | null): Promise<ProofRefusal | null> {
  const refusal = checkProofFile(file);
  if (refusal || !file) return refusal;
  const head = new Uint8Array(await file.slice(0, 8).arrayBuffer());
  return looksLikeImage(head) ? null : 'file_type';
}
