import type { TokenClaims } from '@contract/types';

/** Reads a token's claims without verifying them (the server verifies); null when unreadable. */
export function decodeToken(token: string): (TokenClaims & { exp?: number }) | null {
  try {
    const part = token.split('.')[1];
    if (!part) return null;
    const json = atob(part.replace(/-/g, '+').replace(/_/g, '/'));
    const bytes = Uint8Array.from(json, (c) => c.charCodeAt(0));
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return null;
  }
}
