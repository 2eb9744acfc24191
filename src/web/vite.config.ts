// Builds the dashboard into dist/web: one page, hashed assets under /assets/, everything bundled (it runs offline).

import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));
const gateway = process.env.SJ_DASHBOARD_PROXY ?? 'http://127.0.0.1:8080';

export default defineConfig({
  root: here,
  base: '/',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('../../dist/web', import.meta.url)),
    emptyOutDir: true,
    assetsDir: 'assets',
  },
  // `npm run dev:web` serves the page with hot reload and sends /api to a running gateway. The gateway refuses
  // requests whose Origin is another site, so the proxy drops the dev server's Origin.
  server: {
    proxy: {
      '/api': {
        target: gateway,
        changeOrigin: true,
        configure: (proxy) => proxy.on('proxyReq', (request) => request.removeHeader('origin')),
      },
      '/apps': { target: gateway, changeOrigin: true },
    },
  },
});
