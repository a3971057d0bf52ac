/** Fills `{{name}}` placeholders; unknown names are left as they are. */
export function fillTemplate(text: string, vars: Record<string, string>): string {
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (match, name: string) => vars[name] ?? match);
}

/** Splits `---` front matter (simple `key: value` lines) from a Markdown body. */
export function parseFrontMatter(source: string): { data: Record<string, string>; body: string } {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(source);
  if (!match) return { data: {}, body: source };
  const data: Record<string, string> = {};
  for (const line of (match[1] ?? '').split(/\r?\n/)) {
    const separator = line.indexOf(':');
    if (separator <= 0) continue;
    data[line.slice(0, separator).trim()] = line
      .slice(separator + 1)
      .trim()
      .replace(/^["']|["']$/g, '');
  }
  return { data, body: source.slice(match[0].length) };
}

/**
 * A user-supplied value made safe for e-mail (subject lines, headers, text and HTML bodies):
 * control characters — CR and LF above all, which could start a new header or forge lines
 * of the text — and the Unicode line and paragraph separators become a space, runs of
 * spaces shrink to one. Every user field that reaches a mail template goes through it,
 * whatever sign-up accepted in the past.
 */
export function mailSafe(value: string): string {
  return value
    .replace(/\p{Cc}|[\u2028\u2029]/gu, ' ')
    .replace(/ {2,}/g, ' ')
    .trim();
}
