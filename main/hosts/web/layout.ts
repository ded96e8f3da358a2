import path from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * Set to true by the `web` build (vite.config.ts `define`): the web host then runs as
 * out/web/preview-web.js, with its bridge script and the demo backend's worker built beside it.
 * Under tsx (the integration tests) it is undefined and everything comes from the sources.
 */
declare const __ADOPS_WEB_HOST_BUILT__: boolean | undefined

export const webHostIsBuilt = typeof __ADOPS_WEB_HOST_BUILT__ !== 'undefined' && __ADOPS_WEB_HOST_BUILT__

/**
 * Where the web host finds what it serves and starts. Built, everything sits in out/web next to
 * the module (`moduleUrl`: import.meta.url of the built file); from source, the bridge is
 * bundled on first use and the worker loads worker.ts through tsx.
 */
export interface WebHostLayout {
  /** The built page (out/renderer). */
  rendererDir: string
  /** The web bridge already bundled (out/web/bridge.js), or null to bundle it from source. */
  bridgeScript: string | null
  /** The demo backend's worker script. */
  sandboxWorker: URL
}

export function webHostLayout(moduleUrl: string): WebHostLayout {
  const moduleDir = path.dirname(fileURLToPath(moduleUrl))
  if (webHostIsBuilt) {
    return {
      rendererDir: path.join(moduleDir, '..', 'renderer'),
      bridgeScript: path.join(moduleDir, 'bridge.js'),
      sandboxWorker: new URL('./sandbox-worker.js', moduleUrl),
    }
  }
  // main/hosts/web → the repository root is three folders up.
  return {
    rendererDir: path.join(moduleDir, '..', '..', '..', 'out', 'renderer'),
    bridgeScript: null,
    sandboxWorker: new URL('../../sandbox/worker-source.mjs', moduleUrl),
  }
}
