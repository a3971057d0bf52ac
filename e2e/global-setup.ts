// Runs once before the journeys: builds the app when needed and starts a server per
// edition; the returned function stops them (and deletes their databases) at the end.
import type { TestProject } from 'vitest/node';
import { startServers } from './harness';

export default async function setup(project: TestProject) {
  const { servers, stop } = await startServers(['reverie', 'amoura']);
  project.provide('e2eServers', { reverie: servers.reverie.url, amoura: servers.amoura.url });
  for (const [edition, server] of Object.entries(servers)) {
    console.log(`[e2e] ${edition} at ${server.url} (ready in ${Math.round(server.readyMs)} ms)`);
  }
  return stop;
}
