/**
 * A lower-case ASCII slug of a text: Latin letters (accents dropped), digits and single
 * hyphens, at most `maxLength` characters; empty for a text without Latin letters or digits
 * (a character's address, a blog post's).
 */
export function slugify(text: string, maxLength: number): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, maxLength)
    .replace(/-+$/g, '');
}
