// Headless Chromium for the benchmarks that drive a browser: Debian's build (or CHROMIUM_PATH)
// with the flags this machine needs (no background networking: the network is closed).
import { chromium } from 'playwright-core';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const FLAGS = [
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
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: [...FLAGS, ...extra] });
}
