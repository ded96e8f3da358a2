// The XLSX reader's worker when main runs from source (the web host under tsx, the tests): a
// worker thread does not inherit tsx's loader, so it loads xlsx-worker.ts through tsx's API.
// The built app starts xlsx-worker.js beside its entry instead (see vite.config.ts).
import { tsImport } from 'tsx/esm/api'

await tsImport('./xlsx-worker.ts', import.meta.url)
