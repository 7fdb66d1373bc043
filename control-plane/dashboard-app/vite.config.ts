/**
 * Vite configuration of the dashboard app. The control plane builds it with this file
 * (`control-plane/src/dashboard-static/build-dashboard.ts`); `npx vite control-plane/dashboard-app`
 * serves it with live reload and forwards API calls to a control plane on DASHBOARD_DEV_API
 * (default http://127.0.0.1:4000).
 */
import { defineConfig } from 'vite';

const api = process.env.DASHBOARD_DEV_API ?? 'http://127.0.0.1:4000';

export default defineConfig({
  root: import.meta.dirname,
  publicDir: false,
  logLevel: 'silent',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  resolve: { alias: { react: 'preact/compat', 'react-dom': 'preact/compat' } },
  build: {
    target: 'es2022',
    // Hashed names under /assets/ are served with a year-long immutable cache.
    assetsDir: 'assets',
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
  },
  server: { proxy: { '/dashboard/api': api, '/v1': api } },
});
