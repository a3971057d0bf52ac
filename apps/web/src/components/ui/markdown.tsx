import Markdown from 'react-markdown';

/**
 * A Markdown text as the blog shows it (the public post page and the admin console's
 * preview render through this one component). Raw HTML in the source is never rendered:
 * react-markdown builds React elements from the Markdown alone, without rehype-raw.
 */
export function MarkdownBody({ source, className = '' }: { source: string; className?: string }) {
  return (
    <div className={`prose-app ${className}`}>
      <Markdown skipHtml>{source}</Markdown>
    </div>
  );
}
