/**
 * ELECTRON_RENDERER_URL points the window at the vite dev server during `npm run dev`. The
 * page it names is trusted like our own (the IPC sender check follows it), so it is honoured
 * only when that makes sense: never in the packaged app (an environment variable must not be
 * able to swap the user's app for a website), and only for a plain http address on this
 * machine, which is where a dev server runs.
 */
const LOOPBACK_HOSTNAMES = new Set(['localhost', '127.0.0.1', '[::1]'])

export function devRendererUrl(value: string | undefined, isPackaged: boolean): string | undefined {
  if (isPackaged || value === undefined) return undefined
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return undefined
  }
  const loopback = url.protocol === 'http:' && LOOPBACK_HOSTNAMES.has(url.hostname) && url.username === '' && url.password === ''
  return loopback ? value : undefined
}
