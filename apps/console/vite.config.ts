// Builds the console to static files the server serves under /console, and serves it in development
// with the console API proxied to a running `pnpm start`. The proxy keeps the browser's Host header, so
// the server sees the page's own origin in Origin and its same-origin check passes.
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  base: '/console/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Every browser the console supports has modulepreload; the polyfill would only add bytes.
    modulePreload: { polyfill: false },
  },
  server: {
    proxy: { '/console/api': 'http://127.0.0.1:8080' },
  },
});
