// `npm run dev`: the API with reloading (tsx watch, port 3000) and the web app through Vite
// (http://localhost:5173, proxying /api to the API). Ctrl-C stops both.
import { spawn } from 'node:child_process';

const children = [
  spawn('npm', ['run', 'dev', '-w', '@reverie/server'], {
    stdio: 'inherit',
    // Links in e-mails lead to the Vite server people use in development.
    env: { ...process.env, LOG_PRETTY: 'true', PUBLIC_URL: process.env.PUBLIC_URL ?? 'http://localhost:5173' },
  }),
  spawn('npm', ['run', 'dev', '-w', '@reverie/web'], { stdio: 'inherit' }),
];
const stop = () => children.forEach((child) => child.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
children.forEach((child) =>
  child.on('exit', (code) => {
    if (code) {
      stop();
      process.exitCode = code;
    }
  }),
);
