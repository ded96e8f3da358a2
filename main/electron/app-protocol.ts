import path from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Net, Protocol } from 'electron'

/**
 * The renderer is served from `app://adops/…` instead of file://: a real origin for the
 * sender check and the CSP, and no access to the rest of the disk through relative URLs.
 */
export const APP_SCHEME = 'app'
export const APP_HOST = 'adops'
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`

export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  // Naive UI writes its styles at run time into <style> tags.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ')

/** Must run before the app is ready. */
export function registerAppScheme(protocol: Protocol): void {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }])
}

/** Resolves a request path inside the renderer folder, or null when it would step outside it. */
export function resolveRendererFile(rendererDir: string, requestUrl: string): string | null {
  const url = new URL(requestUrl)
  if (url.host !== APP_HOST) return null
  const relative = decodeURIComponent(url.pathname === '/' ? '/index.html' : url.pathname)
  const file = path.resolve(rendererDir, `.${relative}`)
  return file.startsWith(path.resolve(rendererDir) + path.sep) ? file : null
}

export function handleAppProtocol(protocol: Protocol, net: Net, rendererDir: string): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const file = resolveRendererFile(rendererDir, request.url)
    if (file === null) return new Response('Not found', { status: 404 })
    const response = await net.fetch(pathToFileURL(file).toString())
    const headers = new Headers(response.headers)
    headers.set('Content-Security-Policy', CONTENT_SECURITY_POLICY)
    headers.set('X-Content-Type-Options', 'nosniff')
    return new Response(response.body, { status: response.status, headers })
  })
}
