import { afterEach, describe, expect, it, vi } from 'vitest';
import { lowLatencyOpus, routePlayback } from './loopback';

/** An offer as Chromium writes it (abridged): Opus with its default fmtp. */
const OFFER = [
  'v=0',
  'o=- 1 2 IN IP4 127.0.0.1',
  's=-',
  't=0 0',
  'm=audio 9 UDP/TLS/RTP/SAVPF 111 63 9',
  'c=IN IP4 0.0.0.0',
  'a=rtpmap:111 opus/48000/2',
  'a=rtcp-fb:111 transport-cc',
  'a=fmtp:111 minptime=10;useinbandfec=1',
  'a=rtpmap:63 red/48000/2',
  'a=rtpmap:9 G722/8000',
  '',
].join('\r\n');

type Mode = 'connect' | 'hang' | 'fail' | 'stall';

/**
 * Two fake RTCPeerConnections that behave as a pair: the answerer gets the offerer's track
 * (ontrack) once it has the offer, and connects once it has a candidate from the other side.
 * A candidate given before the remote description is refused, as browsers do.
 */
class FakePeer {
  static all: FakePeer[] = [];
  static mode: Mode = 'connect';
  connectionState: RTCPeerConnectionState = 'new';
  iceConnectionState: RTCIceConnectionState = 'new';
  onicecandidate: ((event: { candidate: unknown }) => void) | null = null;
  ontrack: ((event: unknown) => void) | null = null;
  onconnectionstatechange: (() => void) | null = null;
  oniceconnectionstatechange: (() => void) | null = null;
  localDescription: RTCSessionDescriptionInit | null = null;
  remoteDescription: RTCSessionDescriptionInit | null = null;
  readonly tracks: { track: unknown; stream: unknown }[] = [];
  readonly candidates: unknown[] = [];
  readonly receiver: { jitterBufferTarget: number | null } = { jitterBufferTarget: null };
  closed = false;

  constructor(readonly config: RTCConfiguration) {
    FakePeer.all.push(this);
  }
  addTrack(track: unknown, stream: unknown) {
    this.tracks.push({ track, stream });
  }
  async createOffer() {
    if (FakePeer.mode === 'stall') await new Promise(() => {});
    return { type: 'offer' as const, sdp: OFFER };
  }
  async createAnswer() {
    return { type: 'answer' as const, sdp: OFFER };
  }
  async setLocalDescription(description: RTCSessionDescriptionInit) {
    this.localDescription = description;
    setTimeout(() =>
      this.onicecandidate?.({ candidate: { candidate: 'candidate:1 1 udp 1 192.0.2.2 5000 typ host' } }),
    );
  }
  async setRemoteDescription(description: RTCSessionDescriptionInit) {
    this.remoteDescription = description;
    if (description.type !== 'offer') return;
    const offerer = FakePeer.all.find((peer) => peer !== this && peer.localDescription?.type === 'offer')!;
    setTimeout(() => this.ontrack?.({ receiver: this.receiver, track: offerer.tracks[0]!.track, streams: [received] }));
  }
  async addIceCandidate(candidate: unknown) {
    if (!this.remoteDescription) throw new Error('InvalidStateError: no remote description');
    this.candidates.push(candidate);
    if (this.remoteDescription.type === 'offer' && FakePeer.mode !== 'hang')
      this.setState(FakePeer.mode === 'connect' ? 'connected' : 'failed');
  }
  setState(state: RTCPeerConnectionState) {
    this.connectionState = state;
    this.onconnectionstatechange?.();
  }
  async getStats() {
    return new Map([
      ['in', { type: 'inbound-rtp', kind: 'audio', jitterBufferDelay: 4.8, jitterBufferEmittedCount: 96_000 }],
    ]);
  }
  close() {
    this.closed = true;
    this.connectionState = 'closed';
  }
}

const received = { id: 'received-stream' } as unknown as MediaStream;

function fakes() {
  const track = { kind: 'audio' };
  const streamDestination = { channelCount: 2, stream: { getAudioTracks: () => [track] } };
  const destination = { id: 'speakers' };
  const context = {
    destination,
    createMediaStreamDestination: vi.fn(() => streamDestination),
  } as unknown as AudioContext;
  const node = { connect: vi.fn(), disconnect: vi.fn() } as unknown as AudioNode & {
    connect: ReturnType<typeof vi.fn>;
    disconnect: ReturnType<typeof vi.fn>;
  };
  const element = {
    autoplay: false,
    srcObject: null as MediaStream | null,
    play: vi.fn(async () => {}),
    pause: vi.fn(),
    setSinkId: vi.fn(async () => {}),
  };
  return { context, node, element, destination, streamDestination, track };
}

afterEach(() => {
  FakePeer.all = [];
  FakePeer.mode = 'connect';
  vi.useRealTimers();
});

describe('routePlayback', () => {
  it('plays through the loopback when RTCPeerConnection exists and connects', async () => {
    const { context, node, element, destination, streamDestination, track } = fakes();
    const route = await routePlayback(context, node, {
      env: { RTCPeerConnection: FakePeer as unknown as typeof RTCPeerConnection, createAudio: () => element as never },
    });
    expect(route.path).toBe('loopback');
    // The worklet feeds the stream destination, never the speakers directly.
    expect(node.connect).toHaveBeenCalledWith(streamDestination);
    expect(node.connect).not.toHaveBeenCalledWith(destination);
    expect(streamDestination.channelCount).toBe(1);
    // Two peers in the page, no ICE servers; one sends the worklet's track.
    const [sender, receiver] = FakePeer.all;
    expect(FakePeer.all).toHaveLength(2);
    expect(sender!.config).toEqual({ iceServers: [] });
    expect(sender!.tracks[0]!.track).toBe(track);
    // The sender's candidate waited for the receiver's remote description (else refused).
    expect(receiver!.candidates).toHaveLength(1);
    // The received track is what plays, with the lowest jitter-buffer target and low-latency Opus.
    expect(element.srcObject).toBe(received);
    expect(element.play).toHaveBeenCalled();
    expect(route.loopback!.stream).toBe(received);
    expect(receiver!.receiver.jitterBufferTarget).toBe(0);
    expect(sender!.remoteDescription!.sdp).toContain('a=fmtp:111 minptime=10;useinbandfec=0;stereo=0');
    expect(receiver!.remoteDescription!.sdp).toContain('a=ptime:10');
    // The output device is chosen on the element; its jitter buffer is reported.
    expect(route.loopback!.canChooseOutput).toBe(true);
    await route.loopback!.setSinkId('headset');
    expect(element.setSinkId).toHaveBeenCalledWith('headset');
    expect(await route.loopback!.jitterBufferMs()).toBeCloseTo(0.05, 5);

    route.loopback!.close();
    expect(sender!.closed && receiver!.closed).toBe(true);
    expect(element.srcObject).toBeNull();
    expect(node.disconnect).toHaveBeenCalledWith(streamDestination);
  });

  it('plays directly when the browser has no RTCPeerConnection', async () => {
    const { context, node, destination } = fakes();
    const route = await routePlayback(context, node, { env: { RTCPeerConnection: undefined } });
    expect(route).toEqual({ path: 'direct', loopback: null });
    expect(node.connect).toHaveBeenCalledWith(destination);
    expect(context.createMediaStreamDestination).not.toHaveBeenCalled();
  });

  it('falls back to the direct path when the connection does not come up in time', async () => {
    vi.useFakeTimers();
    FakePeer.mode = 'hang';
    const { context, node, element, destination, streamDestination } = fakes();
    const routed = routePlayback(context, node, {
      timeoutMs: 2000,
      env: { RTCPeerConnection: FakePeer as unknown as typeof RTCPeerConnection, createAudio: () => element as never },
    });
    await vi.advanceTimersByTimeAsync(1900);
    expect(node.connect).not.toHaveBeenCalledWith(destination);
    await vi.advanceTimersByTimeAsync(200);
    const route = await routed;
    expect(route.path).toBe('direct');
    expect(node.connect).toHaveBeenCalledWith(destination);
    expect(node.disconnect).toHaveBeenCalledWith(streamDestination);
    expect(FakePeer.all.every((peer) => peer.closed)).toBe(true);
    expect(element.play).not.toHaveBeenCalled();
  });

  it('falls back on the timeout when even the negotiation never finishes', async () => {
    vi.useFakeTimers();
    FakePeer.mode = 'stall';
    const { context, node, element, destination } = fakes();
    const routed = routePlayback(context, node, {
      timeoutMs: 2000,
      env: { RTCPeerConnection: FakePeer as unknown as typeof RTCPeerConnection, createAudio: () => element as never },
    });
    await vi.advanceTimersByTimeAsync(2100);
    expect((await routed).path).toBe('direct');
    expect(node.connect).toHaveBeenCalledWith(destination);
    expect(FakePeer.all.every((peer) => peer.closed)).toBe(true);
  });

  it('falls back when the connection fails, or the element may not play', async () => {
    FakePeer.mode = 'fail';
    const first = fakes();
    const env = {
      RTCPeerConnection: FakePeer as unknown as typeof RTCPeerConnection,
      createAudio: () => first.element as never,
    };
    expect((await routePlayback(first.context, first.node, { env })).path).toBe('direct');
    expect(first.node.connect).toHaveBeenCalledWith(first.destination);

    FakePeer.mode = 'connect';
    const second = fakes();
    second.element.play.mockRejectedValue(new DOMException('no gesture', 'NotAllowedError'));
    const route = await routePlayback(second.context, second.node, {
      env: {
        RTCPeerConnection: FakePeer as unknown as typeof RTCPeerConnection,
        createAudio: () => second.element as never,
      },
    });
    expect(route.path).toBe('direct');
    expect(second.node.connect).toHaveBeenCalledWith(second.destination);
  });

  it('switches to the direct path should the loopback fail during the call', async () => {
    const { context, node, element, destination } = fakes();
    const onDirect = vi.fn();
    const route = await routePlayback(context, node, {
      onDirect,
      env: { RTCPeerConnection: FakePeer as unknown as typeof RTCPeerConnection, createAudio: () => element as never },
    });
    expect(route.path).toBe('loopback');
    FakePeer.all[1]!.setState('failed');
    expect(route.path).toBe('direct');
    expect(route.loopback).toBeNull();
    expect(node.connect).toHaveBeenCalledWith(destination);
    expect(onDirect).toHaveBeenCalledTimes(1);
  });
});

describe('lowLatencyOpus', () => {
  it('asks for 10 ms mono Opus frames without FEC or DTX, and leaves other codecs alone', () => {
    const sdp = lowLatencyOpus(OFFER);
    expect(sdp).toContain(
      'a=fmtp:111 minptime=10;useinbandfec=0;stereo=0;sprop-stereo=0;usedtx=0;maxaveragebitrate=64000',
    );
    expect(sdp).not.toContain('useinbandfec=1');
    expect(sdp.split('\r\n').filter((line) => line === 'a=ptime:10')).toHaveLength(1);
    expect(sdp).toContain('a=rtpmap:63 red/48000/2');
    expect(lowLatencyOpus('v=0\r\nm=audio 9 RTP/AVP 0\r\n')).toBe('v=0\r\nm=audio 9 RTP/AVP 0\r\n');
  });
});
