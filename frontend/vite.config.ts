/// <reference types="vitest/config" />
// The dev server proxies the API (and its WebSockets) to a running backend, so the app
// is always same-origin with it, as in production where the backend serves `dist/`.
import { defineConfig } from 'vite'
import vue from '@vitejs/plugin-vue'

const backend = process.env.BACKEND_URL ?? 'http://127.0.0.1:8000'

export default defineConfig({
  plugins: [vue()],
  server: {
    port: 5173,
    proxy: {
      '/api': { target: backend, ws: true, changeOrigin: false },
      // E2B's SDKs: the E2B-compatible API, and the signed file links they build.
      '/e2b': { target: backend, changeOrigin: false },
      '^/files(\\?|$)': { target: backend, changeOrigin: false },
    },
  },
  build: {
    target: 'es2022',
    // Read by scripts/bundle-size.mjs to add up what each screen loads.
    manifest: true,
    chunkSizeWarningLimit: 600,
  },
  test: {
    environment: 'happy-dom',
    include: ['tests/**/*.test.ts'],
  },
})
