import { describe, expect, it } from 'vitest';
import { addressedIn, readModelChoice, selectSpeaker, type TurnCharacter, type TurnMessage } from './turns.js';

const ana: TurnCharacter = { botId: 'a', name: 'Ana Morales', muted: false };
const bea: TurnCharacter = { botId: 'b', name: 'Bea', muted: false };
const cleo: TurnCharacter = { botId: 'c', name: 'Cleo', muted: false };
const mei: TurnCharacter = { botId: 'm', name: '美玲', muted: false };
const cast = [ana, bea, cleo];

const person = (text: string): TurnMessage => ({ speakerBotId: null, text });
const said = (botId: string, text: string): TurnMessage => ({ speakerBotId: botId, text });

describe('selectSpeaker', () => {
  it('gives the turn to the character a person names or @mentions', () => {
    expect(
      selectSpeaker({
        characters: cast,
        recent: [person('Cleo, what do you think?')],
        trigger: 'person',
        mode: 'auto',
      }),
    ).toEqual({
      kind: 'speaker',
      botId: 'c',
      reason: 'addressed',
    });
    expect(
      selectSpeaker({ characters: cast, recent: [person('hey @AnaMorales')], trigger: 'person', mode: 'auto' }),
    ).toMatchObject({ botId: 'a' });
    // The first word of a name, any case; the first one named wins.
    expect(
      selectSpeaker({ characters: cast, recent: [person('ana and bea, come')], trigger: 'person', mode: 'auto' }),
    ).toMatchObject({ botId: 'a' });
    // A name inside another word is no call.
    expect(addressedIn('Beatrix says hi', cast)).toBeNull();
    // Names written without spaces are found inside a sentence.
    expect(addressedIn('美玲你好', [mei])).toEqual(mei);
  });

  it('lets an addressed character speak twice in a row, and a muted one when called', () => {
    const recent = [person('hi'), said('c', 'Hello.'), person('Cleo, again?')];
    expect(selectSpeaker({ characters: cast, recent, trigger: 'person', mode: 'auto' })).toMatchObject({
      botId: 'c',
      reason: 'addressed',
    });
    const muted = cast.map((c) => (c.botId === 'b' ? { ...c, muted: true } : c));
    expect(
      selectSpeaker({ characters: muted, recent: [person('Bea?')], trigger: 'person', mode: 'auto' }),
    ).toMatchObject({ botId: 'b' });
  });

  it('never picks the last speaker or a muted character on its own', () => {
    const recent = [person('hi'), said('a', 'Hi.'), person('nice weather')];
    const muted = cast.map((c) => (c.botId === 'b' ? { ...c, muted: true } : c));
    expect(selectSpeaker({ characters: muted, recent, trigger: 'person', mode: 'auto' })).toEqual({
      kind: 'speaker',
      botId: 'c',
      reason: 'rule',
    });
    // Only the last speaker is left: nobody answers rather than her twice.
    const two = [ana, { ...bea, muted: true }];
    expect(selectSpeaker({ characters: two, recent, trigger: 'person', mode: 'auto' })).toEqual({ kind: 'none' });
  });

  it('follows the conversation: the character named most recently by someone else', () => {
    const recent = [person('hello'), said('a', 'Bea would know, ask her.'), person('ok')];
    expect(selectSpeaker({ characters: cast, recent, trigger: 'person', mode: 'auto' })).toEqual({
      kind: 'speaker',
      botId: 'b',
      reason: 'rule',
    });
    // Continue: the same rule, without a person's message.
    const talk = [said('b', 'Cleo, your turn.'), said('c', 'Fine.')];
    expect(selectSpeaker({ characters: cast, recent: talk, trigger: 'continue', mode: 'auto' })).toMatchObject({
      botId: 'a',
    });
  });

  it('forgets a name once she has answered it', () => {
    const recent = [person('@Bea, play'), said('b', 'Sure.'), person('more'), said('c', 'Yes.'), person('go on')];
    expect(selectSpeaker({ characters: cast, recent, trigger: 'person', mode: 'auto' })).toMatchObject({ botId: 'a' });
  });

  it('else the one silent longest', () => {
    const recent = [said('a', 'One.'), said('b', 'Two.'), said('c', 'Three.'), person('go on')];
    expect(selectSpeaker({ characters: cast, recent, trigger: 'person', mode: 'auto' })).toEqual({
      kind: 'speaker',
      botId: 'a',
      reason: 'rule',
    });
    const next = [...recent, said('a', 'Four.')];
    expect(selectSpeaker({ characters: cast, recent: next, trigger: 'continue', mode: 'auto' })).toMatchObject({
      botId: 'b',
    });
  });

  it('asks the model only when the rule cannot tell (several never spoke)', () => {
    expect(
      selectSpeaker({ characters: cast, recent: [person('hello everyone')], trigger: 'person', mode: 'auto' }),
    ).toEqual({
      kind: 'ask_model',
      candidates: ['a', 'b', 'c'],
    });
    const recent = [person('hello'), said('a', 'Hi!'), person('and you?')];
    expect(selectSpeaker({ characters: cast, recent, trigger: 'person', mode: 'auto' })).toEqual({
      kind: 'ask_model',
      candidates: ['b', 'c'],
    });
  });

  it('in manual mode answers only a called character', () => {
    expect(selectSpeaker({ characters: cast, recent: [person('hello')], trigger: 'person', mode: 'manual' })).toEqual({
      kind: 'none',
    });
    expect(
      selectSpeaker({ characters: cast, recent: [person('Bea?')], trigger: 'person', mode: 'manual' }),
    ).toMatchObject({ botId: 'b' });
  });

  it("reads the model's answer as a candidate, else the first one", () => {
    expect(readModelChoice('Cleo.', [bea, cleo])).toBe('c');
    expect(readModelChoice('I think **Bea** should', [bea, cleo])).toBe('b');
    expect(readModelChoice('nobody', [bea, cleo])).toBe('b');
  });
});
