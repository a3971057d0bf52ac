import { describe, expect, it } from 'vitest';
import { SentenceChunker, spokenText } from './sentences.js';
import { cutAtWord } from './speaker.js';

function chunk(pieces: string[]): string[] {
  const chunker = new SentenceChunker();
  return [...pieces.flatMap((piece) => chunker.push(piece)), ...chunker.flush()];
}

describe('SentenceChunker', () => {
  it('emits each sentence once it is complete while the text streams', () => {
    const chunker = new SentenceChunker();
    expect(chunker.push('Hi')).toEqual([]);
    // A full stop after a word ends the sentence at once; after a number it waits.
    expect(chunker.push('.')).toEqual(['Hi.']);
    expect(chunker.push(' How are')).toEqual([]);
    expect(chunker.push(' you? I am')).toEqual(['How are you?']);
    expect(chunker.push(' fine')).toEqual([]);
    expect(chunker.flush()).toEqual(['I am fine']);
  });

  it('lets the first piece go early at a clause break once it has a few words', () => {
    const chunker = new SentenceChunker();
    expect(chunker.push('Well, ')).toEqual([]);
    expect(chunker.push('I thought about it a lot, ')).toEqual(['Well, I thought about it a lot,']);
    // Only the first: later pieces wait for the sentence's end.
    expect(chunker.push('and then, ')).toEqual([]);
    expect(chunker.push('I knew')).toEqual([]);
    expect(chunker.flush()).toEqual(['and then, I knew']);
  });

  it('never reads roleplay actions between asterisks, even split across deltas', () => {
    expect(chunk(['*smiles ', 'softly* Hello', ' there. *waves*', ' Bye!'])).toEqual(['Hello there.', 'Bye!']);
    // An action never closed is not read either.
    expect(chunk(['Okay. *leans in and'])).toEqual(['Okay.']);
  });

  it('drops links, Markdown marks and emoji, and pieces with nothing to say', () => {
    expect(chunk(['**Look** at https://example.com now! 😊 ', '... '])).toEqual(['Look at now!']);
  });

  it('waits after a number or an abbreviation that may go on', () => {
    const chunker = new SentenceChunker();
    expect(chunker.push('It costs 3.')).toEqual([]);
    expect(chunker.push('5 euros. Dr.')).toEqual(['It costs 3.5 euros.']);
    expect(chunker.push(' Who')).toEqual([]);
    expect(chunker.flush()).toEqual(['Dr. Who']);
  });

  it('cuts Chinese at its own full stops and keeps abbreviations whole', () => {
    expect(chunk(['你好。今天', '怎么样？'])).toEqual(['你好。', '今天怎么样？']);
    expect(chunk(['Dr. Smith is here. Yes.'])).toEqual(['Dr. Smith is here.', 'Yes.']);
  });

  it('spokenText removes actions', () => {
    expect(spokenText('*blushes* Thank you')).toBe('Thank you');
  });
});

describe('cutAtWord', () => {
  it('keeps the played share of a sentence at a word boundary', () => {
    expect(cutAtWord('one two three four', 0.5)).toBe('one two');
    expect(cutAtWord('one two three four', 0.6)).toBe('one two');
    expect(cutAtWord('one two three four', 0)).toBe('');
    expect(cutAtWord('one two three four', 1)).toBe('one two three four');
    expect(cutAtWord('你好今天怎么样', 0.5)).toBe('你好今');
  });
});
