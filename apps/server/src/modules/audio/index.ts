/**
 * What other modules may use of the audio module (issue 25: its plugin lands here): whether a
 * message's voice is ready, for the chats presenter.
 */
export { hasAudio } from './audio.presenter.js';
