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

const serverBin = () => resolve(FRONTEND, process.env.PIZZA_BIN ?? '../target/debug/pizza-order');

/**
 * Starts `pizza-order serve`. `env` adds to the environment (a shared PostgreSQL and Redis for
 * the two-node tests); without it each server has its own fresh embedded database.
 * @returns {Promise<{base: string, stop: () => Promise<void>, log: () => string}>}
 */
export async function startServer(env = {}) {
  const bin = serverBin();
  if (!existsSync(bin)) throw new Error(`server binary not found at ${bin} (cargo build, or set PIZZA_BIN)`);
  if (!existsSync(join(DIST, 'index.html'))) throw new Error(`no built app in ${DIST}: run npm run build first`);
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'pizza-e2e-data-'));
  let output = '';
  const child = spawn(bin, ['serve', '--bind', `127.0.0.1:${port}`, '--data-dir', dataDir], {
    cwd: REPO,
    env: { ...process.env, PIZZA__SERVER__STATIC_DIR: DIST, NO_COLOR: '1', ...env },
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

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

function run(cmd, args, env = {}) {
  return new Promise((ok, fail) => {
    const child = spawn(cmd, args, { cwd: REPO, env: { ...process.env, NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', fail);
    child.on('exit', (code) => (code === 0 ? ok(out) : fail(new Error(`${cmd} ${args.join(' ')} exited ${code}:\n${out}`))));
  });
}

/** Whether PostgreSQL and Redis answer (the production path of the two-node test). */
export async function productionPathReachable() {
  try {
    await run('pg_isready', ['-q', '-d', TEST_DATABASE_URL]);
    const pong = await run('redis-cli', ['-u', TEST_REDIS_URL, 'ping']);
    return pong.includes('PONG');
  } catch {
    return false;
  }
}

/**
 * Two nodes of one deployment: a fresh PostgreSQL database (migrated and seeded once, as the
 * production steps of docs/configuration.md say) and one Redis key prefix, both removed by `stop`.
 * @returns {Promise<{a: {base: string}, b: {base: string}, stop: () => Promise<void>, log: () => string}>}
 */
export async function startTwoNodes() {
  const name = `pizza_e2e_${process.pid}_${Date.now()}`;
  const adminUrl = new URL(TEST_DATABASE_URL);
  const dbUrl = new URL(TEST_DATABASE_URL);
  dbUrl.pathname = `/${name}`;
  await run('psql', [adminUrl.href, '-qc', `CREATE DATABASE ${name}`]);
  const prefix = `${name}:`;
  const env = {
    DATABASE_URL: dbUrl.href,
    REDIS_URL: TEST_REDIS_URL,
    PIZZA__REDIS__KEY_PREFIX: prefix,
    PIZZA__ORDERING__TABLE_SECRET: 'e2e-two-nodes-table-secret',
    // With PostgreSQL the sandbox's notify key must be configured, the same on both nodes.
    PIZZA__PAYMENT__SANDBOX_SECRET: 'e2e-two-nodes-sandbox-notify-key',
  };
  const nodes = [];
  const cleanup = async () => {
    for (const n of nodes) await n.stop();
    await run('psql', [adminUrl.href, '-qc', `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`]).catch(() => undefined);
    const keys = (await run('redis-cli', ['-u', TEST_REDIS_URL, '--scan', '--pattern', `${prefix}*`]).catch(() => '')).split('\n').filter(Boolean);
    for (let i = 0; i < keys.length; i += 200) await run('redis-cli', ['-u', TEST_REDIS_URL, 'del', ...keys.slice(i, i + 200)]).catch(() => undefined);
  };
  try {
    await run(serverBin(), ['migrate'], env);
    await run(serverBin(), ['seed'], env);
    nodes.push(await startServer(env));
    nodes.push(await startServer(env));
  } catch (e) {
    await cleanup();
    throw e;
  }
  return { a: nodes[0], b: nodes[1], stop: cleanup, log: () => nodes.map((n, i) => `--- node ${i}\n${n.log()}`).join('\n') };
}
