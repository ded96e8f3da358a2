// `node --import ./register.mjs out/main/index.js …` runs the built main with the stand-in
// below answering `import … from 'electron'`, as the packaged binary's own module would.
import { register } from 'node:module'

register('./hooks.mjs', import.meta.url)
