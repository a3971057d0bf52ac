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

/**
 * A character's or user's text with `*actions*` in italics and `**bold**` in bold, as React
 * elements: the text is never parsed as HTML (`lib/roleplay.ts`). `streaming` renders a reply
 * still arriving, whose open markers are taken as closed at its current end.
 */
export const RoleplayText = memo(function RoleplayText({
  text,
  streaming = false,
}: {
  text: string;
  streaming?: boolean;
}) {
  return <>{render(parseRoleplay(text, { open: streaming }), 'r')}</>;
});
