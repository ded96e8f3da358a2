/**
 * The demo backend's worker as main starts it when it runs from source (the web host, the
 * tests): main/sandbox/worker-source.mjs loads worker.ts through tsx. The app starts the built
 * out/main/sandbox-worker.js instead.
 */
export const SOURCE_SANDBOX_WORKER = new URL('../../main/sandbox/worker-source.mjs', import.meta.url)
