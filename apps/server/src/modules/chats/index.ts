/**
 * What other modules and the app may use of the chats module (issue 25: its plugin lands here).
 */
export type { LiveRepliesOptions } from './live-replies.js';
