import { useEffect, useRef } from 'react';
import type { CallTokenBody } from '@reverie/shared';
import type { CallEnd, CallFailure } from '../call-state';
import { useCall, type CallDeps } from '../hooks/use-call';
import { CallScreen, type CallCharacter } from './call-screen';

export interface CallViewProps {
  target: CallTokenBody;
  character: CallCharacter;
  /** Start at once (the browser has seen a tap on this page, so audio may play); else a Start button. */
  autoStart: boolean;
  /** Known before asking: calls are unavailable on this server. */
  preflight?: CallFailure | null;
  onRequireAuth: () => void;
  onRequirePremium: () => void;
  /** The user hung up: the page goes back to the chat, whose messages now hold the call. */
  onHungUp: (chatId: string | null) => void;
  /** "Back to the chat" from a failure or another end. */
  onBack: (chatId: string | null) => void;
  /** Any end: the chat's queries are stale (the transcript was saved). */
  onEnded?: (reason: CallEnd, chatId: string | null) => void;
  deps?: Partial<CallDeps>;
}

/** A call with one character: the protocol and audio (useCall) behind the call screen. */
export function CallView({
  target,
  character,
  autoStart,
  preflight = null,
  onRequireAuth,
  onRequirePremium,
  onHungUp,
  onBack,
  onEnded,
  deps,
}: CallViewProps) {
  const hungUp = useRef(false);
  const call = useCall({
    target,
    preflight,
    onRequireAuth,
    onRequirePremium,
    deps,
    onEnded: (reason, chatId) => {
      onEnded?.(reason, chatId);
      if (reason === 'hangup' && hungUp.current) onHungUp(chatId);
    },
  });
  const { start } = call;
  // Unmounting ends the call (useCall); React's strict mode mounts twice in development, and
  // the second mount starts it again.
  useEffect(() => {
    if (autoStart) start();
  }, [autoStart, start]);

  return (
    <CallScreen
      character={character}
      view={call.view}
      levels={call.levels}
      outputs={call.outputs}
      playback={call.playback}
      onMute={call.setMuted}
      onPushToTalk={call.setPushToTalk}
      onTalk={call.talk}
      onHangup={() => {
        hungUp.current = true;
        call.hangup();
      }}
      onOutput={(id) => void call.setOutput(id)}
      onUnblockAudio={call.unblockAudio}
      onRetry={() => {
        hungUp.current = false;
        start();
      }}
      onBack={() => onBack(call.chatId())}
      onStart={autoStart ? undefined : start}
      onUpgrade={onRequirePremium}
      onSignIn={onRequireAuth}
    />
  );
}
