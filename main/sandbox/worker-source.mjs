// The demo backend's worker when main runs from source (the web host under tsx, the tests):
// a worker thread does not inherit tsx's loader, so it loads worker.ts through tsx's API.
// The built app starts out/main/sandbox-worker.js instead (see vite.config.ts).
import { tsImport } from 'tsx/esm/api'

await tsImport('./worker.ts', import.meta.url)
