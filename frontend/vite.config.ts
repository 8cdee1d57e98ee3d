/// <reference types="vitest/config" />
import { fileURLToPath, URL } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { firstLoadWords } from './scripts/firstLoadWords';
import { zhPages } from './src/lib/i18n/zhPages';

// The Rust server (pizza-order serve) listens on 8080 by default; in development Vite serves the
// app and forwards everything that belongs to the server.
const server = process.env.PIZZA_SERVER ?? 'http://127.0.0.1:8080';

// React Router's package exports name no "production" condition, so bundlers take its development
// build (warnings and checks, 39 KB before gzip in the first load); the build takes the production
// one, which the package ships beside it. Tests and `vite dev` keep the development build's warnings.
const reactRouterProduction = fileURLToPath(
  new URL('./node_modules/react-router/dist/production/index.mjs', import.meta.url),
);

export default defineConfig(({ command }) => ({
  // The build fails should the first load use a word that only comes with the page chunks.
  plugins: [react(), firstLoadWords(Object.keys(zhPages))],
  resolve: {
    alias: [
      { find: '@', replacement: fileURLToPath(new URL('./src', import.meta.url)) },
      ...(command === 'build' ? [{ find: /^react-router$/, replacement: reactRouterProduction }] : []),
    ],
  },
  server: {
    proxy: {
      '/api': server,
      '/health': server,
      '/sandbox': server,
      '/socket.io': { target: server, ws: true },
    },
  },
  build: {
    outDir: 'dist',
    // No source maps: dist/ is what the server serves, and it serves no .map either (static_files.rs).
    sourcemap: false,
    // dist/.vite/manifest.json: which chunks each entry and route pulls in (scripts/bundle-budget.mjs).
    manifest: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // Everything the entry imports statically in one chunk: the home page's first load is
          // one gzip stream (1.6 KB less than the six small shared chunks made otherwise) and one
          // request. Route chunks import what they share with it from it.
          groups: [{ name: 'index', tags: ['$initial'] }],
        },
      },
    },
  },
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts'],
    css: false,
    restoreMocks: true,
  },
}));
