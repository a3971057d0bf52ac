/**
 * The reply's WebRTC loopback (docs/calls.md "Echo"). Chromium's echo canceller takes as its
 * reference only audio received over WebRTC (Chromium bug 687574), not Web Audio's output: so
 * the playback worklet's output is sent from one RTCPeerConnection to another inside the page
 * (no server, no STUN) and the received track is what plays, through an <audio> element.
 * When the browser has no RTCPeerConnection, or the two do not connect within `timeoutMs`,
 * the caller plays the worklet straight to the AudioContext's destination (the direct path).
 */

/** What plays the reply. */
export type PlaybackPath = 'loopback' | 'direct';

export interface Loopback {
  /** The element playing the received track. */
  readonly element: HTMLAudioElement;
  /** The received track's stream (what the user hears). */
  readonly stream: MediaStream;
  /** Whether the element can play on another output device. */
  readonly canChooseOutput: boolean;
  setSinkId(id: string): Promise<void>;
  /** The receiver's mean jitter-buffer delay so far (ms), when the browser reports it. */
  jitterBufferMs(): Promise<number | null>;
  close(): void;
}

export interface LoopbackOptions {
  /** How long the two connections may take to come up (ms). */
  timeoutMs?: number;
  /** Called once should the connection fail later (the caller switches to the direct path). */
  onFailed?: () => void;
  /**
   * The latency settings, both on by default: the Opus SDP (lowLatencyOpus) and the
   * receiver's 0 ms jitter-buffer target. Off only to measure what they bring (the bench).
   */
  tuning?: { sdp?: boolean; jitterBuffer?: boolean };
  /** For tests: the constructors and the element factory. */
  env?: Partial<LoopbackEnv>;
}

export interface LoopbackEnv {
  RTCPeerConnection: typeof RTCPeerConnection | undefined;
  createAudio: () => HTMLAudioElement;
}

type SinkElement = HTMLAudioElement & { setSinkId?: (id: string) => Promise<void> };
type LowLatencyReceiver = RTCRtpReceiver & { jitterBufferTarget?: number | null; playoutDelayHint?: number };

export const LOOPBACK_TIMEOUT_MS = 2000;

/**
 * Opus for speech with the least delay: 10 ms frames, mono, no in-band FEC (nothing is lost
 * on a loopback, and FEC adds a frame of look-ahead), no DTX, 64 kbit/s.
 */
export function lowLatencyOpus(sdp: string): string {
  const opus = /^a=rtpmap:(\d+) opus\/48000/im.exec(sdp)?.[1];
  if (!opus) return sdp;
  const params = 'minptime=10;useinbandfec=0;stereo=0;sprop-stereo=0;usedtx=0;maxaveragebitrate=64000';
  const lines = sdp.split('\r\n');
  const fmtp = lines.findIndex((line) => line.startsWith(`a=fmtp:${opus} `));
  if (fmtp >= 0) lines[fmtp] = `a=fmtp:${opus} ${params}`;
  else {
    const rtpmap = lines.findIndex((line) => line.startsWith(`a=rtpmap:${opus} `));
    lines.splice(rtpmap + 1, 0, `a=fmtp:${opus} ${params}`);
  }
  const filtered = lines.filter((line) => !line.startsWith('a=ptime:') && !line.startsWith('a=maxptime:'));
  const media = filtered.findIndex((line) => line.startsWith('m=audio'));
  if (media >= 0) filtered.splice(media + 1, 0, 'a=ptime:10');
  return filtered.join('\r\n');
}

function browserEnv(): LoopbackEnv {
  return {
    RTCPeerConnection: typeof RTCPeerConnection === 'function' ? RTCPeerConnection : undefined,
    createAudio: () => new Audio(),
  };
}

/**
 * Routes `input` (the playback worklet) through the loopback, or resolves null (nothing left
 * connected) when the loopback is unavailable or does not come up in time.
 */
export async function openLoopback(
  context: AudioContext,
  input: AudioNode,
  { timeoutMs = LOOPBACK_TIMEOUT_MS, onFailed, tuning = {}, env: overrides }: LoopbackOptions = {},
): Promise<Loopback | null> {
  const env = { ...browserEnv(), ...overrides };
  const Peer = env.RTCPeerConnection;
  if (!Peer || typeof context.createMediaStreamDestination !== 'function') return null;
  const munge = tuning.sdp === false ? (sdp: string) => sdp : lowLatencyOpus;

  let destination: MediaStreamAudioDestinationNode | null = null;
  let sender: RTCPeerConnection | null = null;
  let receiver: RTCPeerConnection | null = null;
  let element: SinkElement | null = null;
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    if (element) {
      element.pause();
      element.srcObject = null;
    }
    sender?.close();
    receiver?.close();
    try {
      if (destination) input.disconnect(destination);
    } catch {
      // Already disconnected.
    }
  };

  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const made = (destination = context.createMediaStreamDestination());
    made.channelCount = 1;
    input.connect(made);
    const track = made.stream.getAudioTracks()[0];
    if (!track) throw new Error('no track');
    const a = (sender = new Peer({ iceServers: [] }));
    const b = (receiver = new Peer({ iceServers: [] }));
    // Candidates wait until the other side has its remote description.
    const pending = new Map<RTCPeerConnection, RTCIceCandidate[]>([
      [a, []],
      [b, []],
    ]);
    const deliver = (to: RTCPeerConnection, candidate: RTCIceCandidate) => {
      const queue = pending.get(to);
      if (queue) queue.push(candidate);
      else void to.addIceCandidate(candidate).catch(() => {});
    };
    const release = (to: RTCPeerConnection) => {
      const queue = pending.get(to) ?? [];
      pending.delete(to);
      for (const candidate of queue) void to.addIceCandidate(candidate).catch(() => {});
    };
    a.onicecandidate = (event) => {
      if (event.candidate) deliver(b, event.candidate);
    };
    b.onicecandidate = (event) => {
      if (event.candidate) deliver(a, event.candidate);
    };

    const received = new Promise<MediaStream>((resolve) => {
      b.ontrack = (event) => {
        const low = event.receiver as LowLatencyReceiver;
        if (tuning.jitterBuffer === false) return resolve(event.streams[0] ?? new MediaStream([event.track]));
        // Chromium: ask the jitter buffer to hold as little as it can (0 ms target); older
        // Chromium knows the same as playoutDelayHint (seconds).
        if ('jitterBufferTarget' in low) low.jitterBufferTarget = 0;
        else if ('playoutDelayHint' in (low as object)) (low as { playoutDelayHint?: number }).playoutDelayHint = 0;
        resolve(event.streams[0] ?? new MediaStream([event.track]));
      };
    });
    const connected = new Promise<void>((resolve, reject) => {
      const check = () => {
        const state: string = b.connectionState ?? b.iceConnectionState;
        if (state === 'connected' || state === 'completed') resolve();
        else if (state === 'failed' || state === 'closed') reject(new Error(state));
      };
      b.onconnectionstatechange = check;
      b.oniceconnectionstatechange = check;
    });

    // A rejection before anyone awaits it is not an unhandled one.
    connected.catch(() => {});
    // The whole setup (negotiation, connection, the element playing) has timeoutMs.
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('timeout')), timeoutMs);
    });
    timeout.catch(() => {});
    const negotiate = async () => {
      a.addTrack(track, made.stream);
      const offer = await a.createOffer();
      const offerSdp = munge(offer.sdp ?? '');
      await a.setLocalDescription({ type: 'offer', sdp: offerSdp });
      await b.setRemoteDescription({ type: 'offer', sdp: offerSdp });
      release(b);
      const answer = await b.createAnswer();
      const answerSdp = munge(answer.sdp ?? '');
      await b.setLocalDescription({ type: 'answer', sdp: answerSdp });
      await a.setRemoteDescription({ type: 'answer', sdp: answerSdp });
      release(a);
      return Promise.all([received, connected]);
    };
    const [stream] = await Promise.race([negotiate(), timeout]);
    const audio = (element = env.createAudio() as SinkElement);
    audio.autoplay = true;
    audio.srcObject = stream;
    await Promise.race([audio.play(), timeout]);
    clearTimeout(timer);

    let failedOnce = false;
    b.onconnectionstatechange = () => {
      if (failedOnce || closed) return;
      if (b.connectionState === 'failed' || b.connectionState === 'closed') {
        failedOnce = true;
        close();
        onFailed?.();
      }
    };

    return {
      element: audio,
      stream,
      canChooseOutput: typeof audio.setSinkId === 'function',
      async setSinkId(id) {
        await audio.setSinkId?.(id);
      },
      async jitterBufferMs() {
        const report = await b.getStats().catch(() => null);
        let value: number | null = null;
        report?.forEach(
          (entry: { type?: string; kind?: string; jitterBufferDelay?: number; jitterBufferEmittedCount?: number }) => {
            if (entry.type === 'inbound-rtp' && entry.kind === 'audio' && entry.jitterBufferEmittedCount)
              value = ((entry.jitterBufferDelay ?? 0) / entry.jitterBufferEmittedCount) * 1000;
          },
        );
        return value;
      },
      close,
    };
  } catch {
    clearTimeout(timer);
    close();
    return null;
  }
}

export interface PlaybackRoute {
  path: PlaybackPath;
  loopback: Loopback | null;
}

/**
 * Plays `node` through the loopback when it comes up, else straight to the context's
 * destination. Should the loopback fail later, the route switches to the direct path and
 * `onDirect` is told.
 */
export async function routePlayback(
  context: AudioContext,
  node: AudioNode,
  options: Omit<LoopbackOptions, 'onFailed'> & { onDirect?: () => void } = {},
): Promise<PlaybackRoute> {
  const route: PlaybackRoute = { path: 'direct', loopback: null };
  const { onDirect, ...rest } = options;
  const loopback = await openLoopback(context, node, {
    ...rest,
    onFailed: () => {
      route.path = 'direct';
      route.loopback = null;
      node.connect(context.destination);
      onDirect?.();
    },
  });
  if (loopback) {
    route.path = 'loopback';
    route.loopback = loopback;
  } else node.connect(context.destination);
  return route;
}
