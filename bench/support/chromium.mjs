// Headless Chromium for the benchmarks and the browser journeys (e2e/harness.ts): Debian's build
// (or CHROMIUM_PATH) with the flags this machine needs (no background networking: the network
// is closed).
import { chromium } from 'playwright-core';

/** Where Chromium is: Debian's package, or CHROMIUM_PATH. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The flags Chromium needs here: headless, no sandbox (root in CI), no network chatter. */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Launches Chromium with the common flags and `extra` ones. */
export function launchChromium(extra = []) {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: [...CHROMIUM_FLAGS, ...extra] });
}
