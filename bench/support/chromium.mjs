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
  // Chromium 156.0.8078.108 (Debian, 2026-11) opens the omnibox's WebUI popup (chrome://omnibox-popup.top-chrome,
  // its "AI mode" app) in a renderer of its own for every window, headless too, and that renderer
  // keeps a core ≈ 90 % busy (a trace: 3.6 s of its main thread and 2.2 s of its workers in 4 s):
  // on 2 cores every page measured or tested ran at half speed (bench/README "The browser's own
  // popup").
  '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup,WebUIOmniboxFullPopup,PreloadTopChromeWebUI',
];

/** Launches Chromium with the common flags and `extra` ones. */
export function launchChromium(extra = []) {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: [...CHROMIUM_FLAGS, ...extra] });
}
