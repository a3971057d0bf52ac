import { describe, expect, it } from 'vitest';
import { CALL_CLOSE_CODES } from '@reverie/shared';
import { CallClient, HANGUP_WAIT_MS, parseServerMessage, socketUrl, type CallEvent } from './protocol';
import { FakeSink, FakeSocket, manualTimers, pcm, ready } from './test-helpers';

function setup() {
  const sockets: FakeSocket[] = [];
  const events: CallEvent[] = [];
  const sink = new FakeSink();
  const timers = manualTimers();
  const client = new CallClient({
    url: '/api/audio_chat/ws?token=t1',
    resolve: (path) => socketUrl(path, '', 'https://app.example/audio?chat=c1'),
    openSocket: (url) => {
      const socket = new FakeSocket(url);
      sockets.push(socket);
      return socket;
    },
    sink,
    onEvent: (event) => events.push(event),
    timers,
  });
  const last = () => sockets[sockets.length - 1]!;
  return { client, sockets, events, sink, timers, last };
}

const flushPromises = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('parseServerMessage', () => {
  it('accepts the protocol messages and refuses malformed ones', () => {
    expect(parseServerMessage(JSON.stringify(ready()))?.type).toBe('ready');
    expect(parseServerMessage('{"type":"state","state":"thinking"}')).toEqual({ type: 'state', state: 'thinking' });
    expect(parseServerMessage('{"type":"state","state":"dancing"}')).toBeNull();
    expect(parseServerMessage('{"type":"ready","version":1}')).toBeNull();
    expect(parseServerMessage('{"type":"caption","role":"bot","turn_id":"t","text":"Hi"}')).toBeNull();
    expect(
      parseServerMessage('{"type":"caption","role":"bot","turn_id":"t","text":"Hi","final":true,"message_id":null}'),
    ).toMatchObject({ type: 'caption', text: 'Hi', message_id: null });
    expect(parseServerMessage('{"type":"end","reason":"something new"}')).toEqual({ type: 'end', reason: 'error' });
    expect(parseServerMessage('not json')).toBeNull();
    expect(parseServerMessage('[1,2]')).toBeNull();
    expect(parseServerMessage('{"type":"audio_start","turn_id":"t","sample_rate":0}')).toBeNull();
  });
});

describe('socketUrl', () => {
  it('resolves the token URL against the API origin with a WebSocket scheme', () => {
    expect(socketUrl('/api/audio_chat/ws?token=a', '', 'https://app.example/audio')).toBe(
      'wss://app.example/api/audio_chat/ws?token=a',
    );
    expect(socketUrl('/api/audio_chat/ws?token=a', 'http://api.example:3000', 'https://app.example/')).toBe(
      'ws://api.example:3000/api/audio_chat/ws?token=a',
    );
  });
});

describe('CallClient', () => {
  it('connects, sends frames after ready, plays a turn, shows captions, and answers an interrupt with flushed', async () => {
    const { client, events, sink, timers, last } = setup();
    client.connect();
    const socket = last();
    expect(socket.url).toBe('wss://app.example/api/audio_chat/ws?token=t1');
    expect(socket.binaryType).toBe('arraybuffer');
    socket.serverOpen();
    client.sendFrame(pcm(640));
    expect(socket.frames).toHaveLength(0); // not before ready
    socket.serverSend(ready());
    expect(client.isLive).toBe(true);
    client.sendFrame(pcm(640));
    client.sendFrame(pcm(640));
    expect(socket.frames.map((f) => f.byteLength)).toEqual([640, 640]);

    socket.serverSend({ type: 'caption', role: 'user', turn_id: 'u1', message_id: 'm1', text: 'Hello', final: true });
    socket.serverSend({ type: 'state', state: 'speaking' });
    socket.serverSend({ type: 'audio_start', turn_id: 'b1', sample_rate: 24000 });
    socket.serverSend(pcm(960));
    socket.serverSend(pcm(960));
    expect(sink.started).toEqual([{ turn: 'b1', rate: 24000 }]);
    expect(sink.pushed).toEqual([
      { turn: 'b1', bytes: 960 },
      { turn: 'b1', bytes: 960 },
    ]);
    expect(client.framesIn).toBe(2);

    // Progress is reported about every 250 ms while playing, only when it moved.
    sink.played.set('b1', 120);
    timers.advance(250);
    sink.played.set('b1', 370);
    timers.advance(250);
    timers.advance(250);
    expect(socket.json.filter((m) => m.type === 'played')).toEqual([
      { type: 'played', turn_id: 'b1', played_ms: 120 },
      { type: 'played', turn_id: 'b1', played_ms: 370 },
    ]);

    socket.serverSend({ type: 'interrupt', turn_id: 'b1' });
    await flushPromises();
    expect(sink.flushed).toEqual(['b1']);
    expect(socket.json.at(-1)).toEqual({ type: 'flushed', turn_id: 'b1', played_ms: 370 });
    // Frames of the interrupted turn still in flight are dropped, until the next turn starts.
    socket.serverSend(pcm(960));
    expect(sink.pushed).toHaveLength(2);
    socket.serverSend({ type: 'audio_start', turn_id: 'b2', sample_rate: 24000 });
    socket.serverSend(pcm(480));
    expect(sink.pushed.at(-1)).toEqual({ turn: 'b2', bytes: 480 });

    expect(events.map((e) => e.type)).toEqual([
      'connecting',
      'ready',
      'caption',
      'state',
      'audio_start',
      'interrupt',
      'audio_start',
    ]);
  });

  it('mutes (no frames, says so), and in push-to-talk sends frames only while the button is held', () => {
    const { client, last } = setup();
    client.connect();
    const socket = last();
    socket.serverOpen();
    socket.serverSend(ready());
    client.setMuted(true);
    client.sendFrame(pcm(640));
    expect(socket.frames).toHaveLength(0);
    client.setMuted(false);
    client.setPushToTalk(true);
    client.sendFrame(pcm(640));
    client.talk(true);
    client.sendFrame(pcm(640));
    client.talk(false);
    client.sendFrame(pcm(640));
    expect(socket.frames).toHaveLength(1);
    expect(socket.json).toEqual([
      { type: 'mute', muted: true },
      { type: 'mute', muted: false },
      { type: 'ptt', mode: true },
      { type: 'talk', down: true },
      { type: 'talk', down: false },
    ]);
  });

  it('reconnects with the resume key after an unexpected drop, with backoff, and goes on', () => {
    const { client, sockets, events, timers, last } = setup();
    client.connect();
    last().serverOpen();
    last().serverSend(ready({ resume: 'key/1', resume_grace_s: 10 }));
    client.setPushToTalk(true);
    last().serverClose(1006);
    expect(events.at(-1)).toEqual({ type: 'reconnecting', attempt: 1 });
    expect(sockets).toHaveLength(1);
    timers.advance(250);
    expect(sockets).toHaveLength(2);
    expect(last().url).toBe('wss://app.example/api/audio_chat/ws?resume=key%2F1');
    // The second attempt fails too: the next waits longer.
    last().serverClose(1006);
    timers.advance(499);
    expect(sockets).toHaveLength(2);
    timers.advance(1);
    expect(sockets).toHaveLength(3);
    last().serverOpen();
    last().serverSend(ready({ resume: 'key/2', elapsed_s: 42, state: 'thinking' }));
    expect(client.isLive).toBe(true);
    // The new connection learns the push-to-talk mode again.
    expect(last().json).toEqual([{ type: 'ptt', mode: true }]);
    expect(events.filter((e) => e.type === 'ready')).toHaveLength(2);
  });

  it('gives up when the grace period runs out', () => {
    const { client, sockets, events, timers, last } = setup();
    client.connect();
    last().serverOpen();
    last().serverSend(ready({ resume_grace_s: 2 }));
    last().serverClose(1006);
    for (let i = 0; i < 10; i++) {
      timers.advance(3000);
      last().serverClose(1006);
    }
    expect(events.at(-1)).toEqual({ type: 'end', reason: 'connection_lost' });
    expect(sockets.length).toBeLessThanOrEqual(4);
  });

  it('ends when the server says the call is over, or replaced', () => {
    const a = setup();
    a.client.connect();
    a.last().serverOpen();
    a.last().serverSend(ready());
    a.last().serverClose(CALL_CLOSE_CODES.replaced);
    expect(a.events.at(-1)).toEqual({ type: 'end', reason: 'replaced' });
    const b = setup();
    b.client.connect();
    b.last().serverOpen();
    b.last().serverSend(ready());
    b.last().serverSend({ type: 'end', reason: 'minutes_exhausted' });
    expect(b.events.at(-1)).toEqual({ type: 'end', reason: 'minutes_exhausted' });
    expect(b.last().closedWith).toBe(1000);
    b.last().serverClose(1000);
    expect(b.events.filter((e) => e.type === 'end')).toHaveLength(1);
  });

  it('hangs up: sends hangup, ends on the server’s end (or after a wait)', () => {
    const { client, events, last } = setup();
    client.connect();
    last().serverOpen();
    last().serverSend(ready());
    client.hangup();
    expect(last().json.at(-1)).toEqual({ type: 'hangup' });
    client.sendFrame(pcm(640));
    expect(last().frames).toHaveLength(0);
    last().serverSend({ type: 'end', reason: 'hangup' });
    expect(events.at(-1)).toEqual({ type: 'end', reason: 'hangup' });

    const silent = setup();
    silent.client.connect();
    silent.last().serverOpen();
    silent.last().serverSend(ready());
    silent.client.hangup();
    silent.timers.advance(HANGUP_WAIT_MS);
    expect(silent.events.at(-1)).toEqual({ type: 'end', reason: 'hangup' });
    expect(silent.last().closedWith).toBe(1000);
  });

  it('reports a socket the browser refuses to open as unreachable', () => {
    const events: CallEvent[] = [];
    const client = new CallClient({
      url: '/api/audio_chat/ws?token=t1',
      resolve: (path) => socketUrl(path, 'http://api.example', 'https://app.example/'),
      openSocket: () => {
        throw new DOMException('insecure', 'SecurityError');
      },
      sink: new FakeSink(),
      onEvent: (event) => events.push(event),
      timers: manualTimers(),
    });
    client.connect();
    expect(events.at(-1)).toEqual({ type: 'failed', reason: 'unreachable' });
  });

  it('reports a refused token and an unreachable server before the call began, and a newer protocol', () => {
    const a = setup();
    a.client.connect();
    a.last().serverClose(CALL_CLOSE_CODES.invalid_token);
    expect(a.events.at(-1)).toEqual({ type: 'failed', reason: 'invalid_token' });
    const b = setup();
    b.client.connect();
    b.last().serverClose(1006);
    expect(b.events.at(-1)).toEqual({ type: 'failed', reason: 'unreachable' });
    const c = setup();
    c.client.connect();
    c.last().serverOpen();
    c.last().serverSend(ready({ version: 2 }));
    expect(c.events.at(-1)).toEqual({ type: 'failed', reason: 'version' });
  });
});
