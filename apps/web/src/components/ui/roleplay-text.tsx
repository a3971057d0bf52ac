import { memo, type ReactNode } from 'react';
import { parseRoleplay, type RoleplayNode } from '../../lib/roleplay';

function render(nodes: RoleplayNode[], path: string): ReactNode[] {
  return nodes.map((node, index) => {
    if (typeof node === 'string') return node;
    const key = `${path}.${index}`;
    return node.type === 'em' ? (
      // An action (narration): italic and a little quieter than speech.
      <em key={key} className="italic opacity-80" data-roleplay="action">
        {render(node.children, key)}
      </em>
    ) : (
      <strong key={key} className="font-semibold">
        {render(node.children, key)}
      </strong>
    );
  });
}

/** Finished texts already parsed, by text: their elements are reused (React elements never change). */
const finished = new Map<string, ReactNode[]>();
/** The cache starts over beyond this many texts (a long chat's rows are mounted again and again while scrolling). */
const FINISHED_MAX = 2000;

function elementsOf(text: string): ReactNode[] {
  let nodes = finished.get(text);
  if (!nodes) {
    if (finished.size >= FINISHED_MAX) finished.clear();
    nodes = render(parseRoleplay(text, { open: false }), 'r');
    finished.set(text, nodes);
  }
  return nodes;
}

/**
 * A character's or user's text with `*actions*` in italics and `**bold**` in bold, as React
 * elements: the text is never parsed as HTML (`lib/roleplay.ts`). `streaming` renders a reply
 * still arriving, whose open markers are taken as closed at its current end. A finished text
 * is parsed once (`elementsOf`), not each time its row is mounted again.
 */
export const RoleplayText = memo(function RoleplayText({
  text,
  streaming = false,
}: {
  text: string;
  streaming?: boolean;
}) {
  return <>{streaming ? render(parseRoleplay(text, { open: true }), 'r') : elementsOf(text)}</>;
});
