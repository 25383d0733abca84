/**
 * A text column holding a JSON list of strings (a task's steps, a flag's related ids), read as
 * that list; anything else reads as empty, so a hand-edited row cannot break a page.
 */
export function textList(json: string): string[] {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}
