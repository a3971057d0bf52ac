/**
 * What other modules and the app may use of the calls module (issue 25: its plugin lands here).
 */
export type { CallSettings, VadFactory } from './calls.service.js';
export type { TurnTimings } from './call-session.js';
