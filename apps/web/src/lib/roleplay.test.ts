import { describe, expect, it } from 'vitest';
import { parseRoleplay, roleplayPlainText } from './roleplay';

const em = (...children: unknown[]) => ({ type: 'em', children });
const strong = (...children: unknown[]) => ({ type: 'strong', children });

describe('roleplay text', () => {
  it('reads *actions* as emphasis and **bold** as strong', () => {
    expect(parseRoleplay('*She pours a glass* Here you go.')).toEqual([em('She pours a glass'), ' Here you go.']);
    expect(parseRoleplay('That is **not** fair')).toEqual(['That is ', strong('not'), ' fair']);
    expect(parseRoleplay('*smiles* Hi *waves*')).toEqual([em('smiles'), ' Hi ', em('waves')]);
  });

  it('nests one in the other', () => {
    expect(parseRoleplay('*she says **no** firmly*')).toEqual([em('she says ', strong('no'), ' firmly')]);
    expect(parseRoleplay('*she says **no***')).toEqual([em('she says ', strong('no'))]);
    expect(parseRoleplay('**loud *and* clear**')).toEqual([strong('loud ', em('and'), ' clear')]);
    expect(parseRoleplay('***both***')).toEqual([strong(em('both'))]);
  });

  it('keeps unbalanced and spaced asterisks literal', () => {
    expect(parseRoleplay('a 5* hotel')).toEqual(['a 5* hotel']);
    expect(parseRoleplay('*unfinished action')).toEqual(['*unfinished action']);
    expect(parseRoleplay('2 * 3 * 4 = 24')).toEqual(['2 * 3 * 4 = 24']);
    expect(parseRoleplay('**')).toEqual(['**']);
    expect(parseRoleplay('****')).toEqual(['****']);
    expect(parseRoleplay('** not bold **')).toEqual(['** not bold **']);
    expect(parseRoleplay('**half bold')).toEqual(['**half bold']);
    expect(parseRoleplay('*a* and *b')).toEqual([em('a'), ' and *b']);
    expect(parseRoleplay('')).toEqual([]);
  });

  it('never interprets HTML: tags stay text', () => {
    const hostile = '<img src=x onerror="alert(1)"> *<b>hi</b>* **<script>x()</script>**';
    const nodes = parseRoleplay(hostile);
    expect(nodes[0]).toBe('<img src=x onerror="alert(1)"> ');
    expect(nodes[1]).toEqual(em('<b>hi</b>'));
    expect(nodes[3]).toEqual(strong('<script>x()</script>'));
  });

  it('while streaming, an open marker at the end is closed by the end (no flash of asterisks)', () => {
    expect(parseRoleplay('Hi *she pours', { open: true })).toEqual(['Hi ', em('she pours')]);
    expect(parseRoleplay('*she says **no', { open: true })).toEqual([em('she says ', strong('no'))]);
    // A marker being written (nothing after it yet, or half of a `**` closer) waits for the next piece.
    expect(parseRoleplay('Hi *', { open: true })).toEqual(['Hi ']);
    expect(parseRoleplay('So **very*', { open: true })).toEqual(['So ', strong('very')]);
    expect(parseRoleplay('So **very**', { open: true })).toEqual(['So ', strong('very')]);
    // Finished text: the same stays literal.
    expect(parseRoleplay('Hi *she pours')).toEqual(['Hi *she pours']);
  });

  it('stays fast on text full of stray asterisks', () => {
    const text = '*a **b '.repeat(2000);
    const started = performance.now();
    parseRoleplay(text);
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('gives the plain text without markers', () => {
    expect(roleplayPlainText('*smiles* **Hello** 5* <b>')).toBe('smiles Hello 5* <b>');
  });
});
