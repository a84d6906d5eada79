import { mentionToken } from './tasks';

/** How many members the "@" picker offers at once. */
export const MENTION_SUGGESTIONS = 8;

/**
 * The "@" being typed at the caret, if any: an "@" at the start or after a space or line break,
 * followed (up to the caret) by at most a first and a last name. Null when the caret is not in one.
 */
export function mentionQueryAt(text: string, caret: number): { start: number; query: string } | null {
  const before = text.slice(0, caret);
  const at = before.lastIndexOf('@');
  if (at < 0) return null;
  if (at > 0 && !/\s/.test(before[at - 1] ?? '')) return null;
  const query = before.slice(at + 1);
  if (query.length > 60 || /[\n@]/.test(query) || /^\s/.test(query) || /\s\S*\s/.test(query)) return null;
  return { start: at, query };
}

/** Members whose name (or email) contains the query, first those whose name starts with it. */
export function filterMentionable<T extends { name: string; email?: string }>(
  members: T[],
  query: string,
): T[] {
  const q = query.trim().toLowerCase();
  if (!q) return members.slice(0, MENTION_SUGGESTIONS);
  const starts: T[] = [];
  const contains: T[] = [];
  for (const m of members) {
    const name = m.name.toLowerCase();
    if (name.startsWith(q) || name.split(/\s+/).some((w) => w.startsWith(q))) starts.push(m);
    else if (name.includes(q) || m.email?.toLowerCase().startsWith(q)) contains.push(m);
  }
  return [...starts, ...contains].slice(0, MENTION_SUGGESTIONS);
}

/** Replaces the "@query" from `start` to the caret with the member's @name and a space. */
export function insertMention(text: string, start: number, caret: number, name: string) {
  const token = `${mentionToken(name)} `;
  const after = text.slice(caret).replace(/^ /, '');
  return { text: `${text.slice(0, start)}${token}${after}`, caret: start + token.length };
}
