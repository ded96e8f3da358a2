/**
 * window.api for the renderer running in a plain browser: the same buildApi as the Electron
 * preload, over HTTP to the web host instead of IPC. Loaded as a classic script before the
 * app's module, so window.api exists when the app starts, exactly as with the preload.
 *
 * The per-run token is read from the page (a meta element the host writes into index.html),
 * never from this file, which any site could load with a <script src>. It is taken out of the
 * document once read.
 */
import { buildApi } from '../../../preload/bridge'
import { contractNames } from '../../../preload/contract-names'

const tokenElement = document.querySelector<HTMLMetaElement>('meta[name="adops-host-token"]')
const settings = { token: tokenElement?.content ?? '' }
tokenElement?.remove()
const listeners = new Map<string, Set<(payload: unknown) => void>>()
let source: EventSource | undefined

function ensureEventSource(): EventSource {
  if (source) return source
  source = new EventSource(`/__host/events?token=${encodeURIComponent(settings.token)}`)
  source.addEventListener('message', (message) => {
    const { channel, payload } = JSON.parse(message.data) as { channel: string; payload: unknown }
    for (const listener of listeners.get(channel) ?? []) listener(payload)
  })
  return source
}

const api = buildApi(
  {
    async invoke(channel, input) {
      try {
        const response = await fetch(`/__host/invoke/${encodeURIComponent(channel)}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-adops-host-token': settings.token },
          body: JSON.stringify(input),
        })
        return await response.json()
      } catch (error) {
        return {
          ok: false,
          error: { code: 'network', message: 'The preview host is not answering. Is `npm run preview:web` still running?', details: { error: String(error) } },
        }
      }
    },
    subscribe(channel, listener) {
      ensureEventSource()
      const set = listeners.get(channel) ?? new Set()
      set.add(listener)
      listeners.set(channel, set)
      return () => set.delete(listener)
    },
  },
  contractNames,
)

Object.defineProperty(window, 'api', { value: api, writable: false, configurable: false })
