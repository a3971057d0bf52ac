import { describe, expect, it } from 'vitest';
import { CitationStream, labelledLine, stripCitations } from './citations.js';

/** Streams `pieces` through a CitationStream: what is shown, and the labels cited. */
function run(pieces: string[]) {
  const stream = new CitationStream();
  const shown = pieces.map((p) => stream.push(p)).join('') + stream.end();
  return { shown, cited: [...stream.cited].sort() };
}

describe('citations asked of the model', () => {
  it('labels memory lines in prompt order', () => {
    expect(labelledLine('Alex has a sister, Léa', 0)).toBe('[m1] Alex has a sister, Léa');
  });

  it('takes a trailing marker out of a streamed reply, however it is split', () => {
    const reply = 'Of course I remember Léa! How is she?\n[[cite: m1, m3]]';
    for (let size = 1; size <= reply.length; size++) {
      const pieces = reply.match(new RegExp(`[\\s\\S]{1,${size}}`, 'g'))!;
      expect(run(pieces), `pieces of ${size}`).toEqual({
        shown: 'Of course I remember Léa! How is she?',
        cited: [0, 2],
      });
    }
  });

  it('never shows a piece of the marker while it streams', () => {
    const stream = new CitationStream();
    const seen: string[] = [];
    for (const piece of ['Yes', ' [', '[ci', 'te: m', '2]', ']']) seen.push(stream.push(piece));
    seen.push(stream.end());
    expect(seen.join('')).toBe('Yes');
    expect(seen.join('')).not.toContain('[');
    expect([...stream.cited]).toEqual([1]);
  });

  it('keeps brackets that are no marker, and text after a marker in the middle', () => {
    expect(run(['She said [laughs] ', 'hi [1].'])).toEqual({ shown: 'She said [laughs] hi [1].', cited: [] });
    expect(run(['A [[cite: m2]] B'])).toEqual({ shown: 'A  B', cited: [1] });
  });

  it('counts the labels of a marker cut by the token limit, and shows none of it', () => {
    expect(run(['Sure.\n[[cite: m1, m'])).toEqual({ shown: 'Sure.', cited: [0] });
  });

  it('strips markers from a whole reply (a proactive message)', () => {
    expect(stripCitations('Hey, how was the lighthouse?\n[[cite: m4]]')).toEqual({
      text: 'Hey, how was the lighthouse?',
      cited: [3],
    });
    expect(stripCitations('Nothing to cite.')).toEqual({ text: 'Nothing to cite.', cited: [] });
  });
});
