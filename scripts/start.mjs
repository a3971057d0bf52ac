// `npm start`: builds what is missing (web app, server bundle), then starts the server,
// which migrates and seeds the database and serves the web app and the API on one port.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function ensureBuilt(workspace, ...markers) {
  if (markers.every((marker) => fs.existsSync(path.join(root, marker))) && process.env.REBUILD !== '1') return;
  console.log(`building ${workspace}…`);
  const result = spawnSync(npm, ['run', 'build', '-w', workspace], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

ensureBuilt('@reverie/web', 'apps/web/dist/index.html');
ensureBuilt('@reverie/server', 'apps/server/dist/server.js', 'apps/server/dist/audio-worker.mjs');

process.env.NODE_ENV ??= 'production';
process.chdir(root);
await import(path.join(root, 'apps/server/dist/server.js'));
