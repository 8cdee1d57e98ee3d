// Starts the real server binary on a free port with a fresh data dir, serving the built app.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
export const FRONTEND = resolve(here, '..');
export const REPO = resolve(FRONTEND, '..');
export const DIST = join(FRONTEND, 'dist');

function freePort() {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => ok(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** @returns {Promise<{base: string, stop: () => Promise<void>, log: () => string}>} */
export async function startServer() {
  const bin = resolve(FRONTEND, process.env.PIZZA_BIN ?? '../target/debug/pizza-order');
  if (!existsSync(bin)) throw new Error(`server binary not found at ${bin} (cargo build, or set PIZZA_BIN)`);
  if (!existsSync(join(DIST, 'index.html'))) throw new Error(`no built app in ${DIST}: run npm run build first`);
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'pizza-e2e-data-'));
  let output = '';
  const child = spawn(bin, ['serve', '--bind', `127.0.0.1:${port}`, '--data-dir', dataDir], {
    cwd: REPO,
    env: { ...process.env, PIZZA__SERVER__STATIC_DIR: DIST, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  let exited = null;
  child.on('exit', (code, signal) => (exited = { code, signal }));

  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited) throw new Error(`server exited early (${JSON.stringify(exited)}):\n${output}`);
    try {
      const res = await fetch(`${base}/health/ready`);
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server not ready within 60 s:\n${output}`);
    }
    await sleep(250);
  }

  return {
    base,
    log: () => output,
    stop: async () => {
      if (!exited) {
        child.kill('SIGTERM');
        for (let i = 0; i < 40 && !exited; i += 1) await sleep(125);
        if (!exited) child.kill('SIGKILL');
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
