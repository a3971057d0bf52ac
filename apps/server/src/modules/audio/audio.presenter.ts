/**
 * For the chats presenter: a message's `has_audio` is true only when its voice message is
 * ready to play (`audio_state = 'ready'` with a stored file).
 */
export function hasAudio(row: { audioState: string | null; audioKey: string | null }): boolean {
  return row.audioState === 'ready' && row.audioKey !== null;
}
