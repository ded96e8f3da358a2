/**
 * Packages the app for Linux as `npm run dist` would, in a process of its own: the unpacked
 * app (the `dir` target), and the AppImage and deb targets up to the point where their
 * desktop entries are written. electron-builder's `effectiveOptionComputed` hook hands those
 * over and skips the archive tools (appimagetool, fpm), which cannot be downloaded here.
 *
 * usage: node build-linux.mjs <project dir> <electron dist> <output dir>
 * Prints {"appImage": "<.desktop text>", "deb": "<.desktop text>"} on its last line.
 */
import { promises as fs } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'

const [projectDir, electronDist, output] = process.argv.slice(2)
const require = createRequire(path.join(projectDir, 'package.json'))
const { build, Platform, Arch } = require('electron-builder')

const desktopEntries = {}
await build({
  projectDir,
  targets: Platform.LINUX.createTarget(['dir', 'AppImage', 'deb'], Arch[process.arch]),
  config: { extends: 'electron-builder.yml', electronDist, npmRebuild: false, directories: { output } },
  async effectiveOptionComputed(computed) {
    // The deb target passes [fpm arguments, path of the .desktop file it wrote].
    if (Array.isArray(computed) && typeof computed[1] === 'string' && computed[1].endsWith('.desktop')) {
      desktopEntries.deb = await fs.readFile(computed[1], 'utf8')
      return true
    }
    // The AppImage target passes { desktop: <.desktop text>, desktopFileName }.
    if (computed !== null && typeof computed === 'object' && typeof computed.desktop === 'string') {
      desktopEntries.appImage = computed.desktop
      return true
    }
    return false
  },
})
process.stdout.write(`\n${JSON.stringify(desktopEntries)}\n`)
