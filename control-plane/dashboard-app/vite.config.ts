/**
 * Vite configuration of the dashboard app. The control plane builds it with this file
 * (`control-plane/src/dashboard-static/build-dashboard.ts`); `npx vite control-plane/dashboard-app`
 * serves it with live reload and forwards API calls to a control plane on DASHBOARD_DEV_API
 * (default http://127.0.0.1:4000), as if the page were on that origin.
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
  server: {
    proxy: {
      // The dashboard API refuses state changes from another origin than its own, and the page
      // here has the dev server's: the forwarded request carries the API's origin instead.
      '/dashboard/api': { target: api, configure: (proxy) => proxy.on('proxyReq', (req) => { if (req.getHeader('origin')) req.setHeader('origin', new URL(api).origin); }) },
      '/v1': api,
    },
  },
});
