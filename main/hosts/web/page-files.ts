/**
 * What the web host serves as files: the built renderer, with the per-run token and the bridge
 * script put into its index.html, and the bridge script itself. Every answer carries the same
 * headers: nobody frames it, and no other origin may load it as a resource.
 */
import type http from 'node:http'
import { promises as fs } from 'node:fs'
import path from 'node:path'
import { CONTENT_SECURITY_POLICY } from '../../electron/app-protocol'
import { channelNames, eventNames } from '@contract'

/** The one file the page runs before the app: the bridge. Its token comes from the page, never from this file. */
export const BRIDGE_PATH = '/__host/bridge.js'
/** Headers on every answer: nobody frames it, and no other origin may load it as a resource. */
export const COMMON_HEADERS = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'cross-origin-resource-policy': 'same-origin',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
}

export const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
}

let bridgeBundle: Promise<string> | undefined
/**
 * The page's bridge script: the one the `web` build wrote (out/web/bridge.js), or else
 * web-bridge.ts (and through it preload/bridge.ts and the contract) bundled once per process.
 */
export function bundleBridge(builtScript: string | null): Promise<string> {
  if (builtScript !== null) {
    bridgeBundle ??= fs.readFile(builtScript, 'utf8').catch(() => {
      throw new Error(`No built web bridge at ${builtScript}. Run "npm run build" first.`)
    })
    return bridgeBundle
  }
  // vite only from source: the built host never loads the bundler.
  bridgeBundle ??= import('vite')
    .then(({ build }) =>
      build({
        configFile: false,
        logLevel: 'silent',
        // As the web-bridge build does (vite.config.ts): the bridge holds the contract's names only.
        define: { __ADOPS_CONTRACT_NAMES__: JSON.stringify({ channels: channelNames, events: eventNames }) },
        build: {
          write: false,
          minify: false,
          target: 'chrome130',
          lib: { entry: path.join(import.meta.dirname, 'web-bridge.ts'), formats: ['iife'], name: 'AdopsWebBridge', fileName: () => 'bridge.js' },
        },
      }),
    )
    .then((output) => {
      const results = Array.isArray(output) ? output : [output]
      for (const result of results) {
        if ('output' in result) {
          const chunk = result.output.find((item) => item.type === 'chunk')
          if (chunk && chunk.type === 'chunk') return chunk.code
        }
      }
      throw new Error('The web bridge did not build')
    })
  return bridgeBundle
}

/** A file of the built renderer (a path outside it is not found); index.html gets the token and the bridge. */
export async function serveRendererFile(rendererDir: string, token: string, pathname: string, response: http.ServerResponse): Promise<void> {
  const relative = decodeURIComponent(pathname === '/' ? '/index.html' : pathname)
  const root = path.resolve(rendererDir)
  const file = path.resolve(root, `.${relative}`)
  if (!file.startsWith(root + path.sep)) {
    response.writeHead(404).end()
    return
  }
  let body: Buffer
  try {
    body = await fs.readFile(file)
  } catch {
    response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found')
    return
  }
  const headers = {
    ...COMMON_HEADERS,
    'content-type': contentTypes[path.extname(file)] ?? 'application/octet-stream',
    'content-security-policy': CONTENT_SECURITY_POLICY,
  }
  if (file === path.join(root, 'index.html')) {
    // The token travels only in the page, which only its own origin can read (the Host and
    // site checks ran already): as data in a meta element, since the CSP runs no inline script.
    // The bridge goes next, deferred: deferred scripts and module scripts run in the order they
    // come, so it still runs before the app's module script, but the page's parser no longer
    // stops for it (its 300 KB were fetched and run before the app's modules were even asked for).
    const html = body
      .toString('utf8')
      .replace('<head>', `<head>\n    <meta name="adops-host-token" content="${token}" />\n    <script defer src="${BRIDGE_PATH}"></script>`)
    response.writeHead(200, headers).end(html)
    return
  }
  response.writeHead(200, headers).end(body)
}
