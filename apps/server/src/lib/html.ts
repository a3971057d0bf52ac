/**
 * The one way the server writes values into HTML and text (issue 27, docs/operations.md
 * "Text written into pages and mails"): every value is escaped with `escapeHtml`, JSON inside
 * `<script>` goes through `scriptJson`, and a value is put into a template with `insertLiteral`
 * (a function replacement: `String.replace` with a string would read `$&`, `$'`, `` $` `` and
 * `$1` in it as patterns). Lint refuses a `.replace` whose replacement is not a constant or a
 * function.
 */

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text made safe inside HTML element content and quoted attribute values (`& < > " '`). */
export const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);

const SCRIPT_ESCAPES: Record<string, string> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

/**
 * JSON that is safe inside `<script>`: no `</script>`, `<!--` or `-->` (the `<`, `>` and `&`
 * are written as `\u003c`, `\u003e`, `\u0026`), no line separators; `JSON.parse` reads it
 * back unchanged.
 */
export const scriptJson = (value: unknown) =>
  JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => SCRIPT_ESCAPES[c]!);

/** `template` with the first match of `pattern` (every match for a global RegExp) replaced by `value`, literally. */
export const insertLiteral = (template: string, pattern: string | RegExp, value: string) =>
  template.replace(pattern, () => value);
