/**
 * What `undici` is to the command line's and the web host's builds (vite.config.ts, `cli` and
 * `web`): only the pieces the HTTP client uses (main/services/http/client.ts: `Agent` and
 * `interceptors.retry`).
 *
 * undici's own entry loads all of undici at start: fetch, WebSocket, EventSource, the cookie
 * helpers (which load Node's internal copy of undici as well), the mocks and the cache stores,
 * several hundred milliseconds of module loading on a busy machine before a command even
 * starts. The command line starts for every cron export and the web host for every
 * end-to-end test, so they load these files alone. The app keeps undici's entry: it starts once.
 */
import Agent from 'undici/lib/dispatcher/agent.js'
import Dispatcher from 'undici/lib/dispatcher/dispatcher.js'
import api from 'undici/lib/api/index.js'
import retry from 'undici/lib/interceptor/retry.js'

// As undici's entry does: `request()` and the other calls live on every dispatcher.
Object.assign(Dispatcher.prototype, api)

export { Agent }
export const interceptors = { retry }
