#!/usr/bin/env node
// What `npm test` needs that `npm install` cannot bring, checked in well under a second before
// anything slow starts: a newcomer gets one line naming what to install, not a failure ten
// minutes into the run. What can be provisioned (Playwright's own Chromium, on a machine that
// can download it) is provisioned. The checks take their environment as an argument, so a test
// can feed a fake machine and read the exact lines (test/unit/build/check-prerequisites.test.ts).
//   node build/check-prerequisites.mjs
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

/** The Chromium the e2e tests use when it is there (test/playwright.config.ts), instead of Playwright's own. */
export const SYSTEM_CHROMIUM = '/usr/bin/chromium'
/**
 * The system browsers the e2e tests drive, the first one installed:
 * Debian's Chromium headless shell (Chromium's old headless mode, the browser Playwright itself
 * runs for headless tests), then Debian's full Chromium. `/usr/bin/chromium` is full Chrome in
 * the new headless mode, and its wrapper script adds flags (GPU rasterization in SwiftShader,
 * the bundled extensions, the accessibility bus): measured on the 2-core machine, the shell
 * took about a fifth less CPU for the same tests (docs/architecture.md, "The test gate").
 */
export const SYSTEM_BROWSERS = ['/usr/bin/chromium-headless-shell', SYSTEM_CHROMIUM]

/** The browser to launch instead of Playwright's own, or undefined to let Playwright use its own. */
export function systemBrowser(exists = existsSync) {
  return SYSTEM_BROWSERS.find((file) => exists(file))
}
export const MINIMUM_NODE = [20, 19]

/** How to install a package, per platform: what the one line names. */
const install = {
  linux: (debian) => `sudo apt-get install ${debian}`,
  darwin: (brew) => `brew install ${brew}`,
}

/**
 * The checks, in order; the first that fails is the one line. `environment`:
 *   platform          process.platform
 *   nodeVersion       process.versions.node
 *   hasCommand(name)  whether a program is on the PATH
 *   exists(path)      whether a file exists
 *   keytarLoads()     whether the keychain module loads in this Node
 *   keytarBuildable() whether it can be built from source here (compiler, python, libsecret headers)
 *   playwrightChromium()        the path of Playwright's own Chromium, or null when it cannot say
 *   installPlaywrightChromium() downloads it; true when that worked
 * Returns null when everything is there, else the line to print.
 */
export function findMissingPrerequisite(environment) {
  const [major, minor] = environment.nodeVersion.split('.').map(Number)
  if (major < MINIMUM_NODE[0] || (major === MINIMUM_NODE[0] && minor < MINIMUM_NODE[1])) {
    return `npm test needs Node.js ${MINIMUM_NODE.join('.')} or newer (this is ${environment.nodeVersion}): install it from https://nodejs.org or with your version manager.`
  }

  if (environment.platform === 'win32' && !environment.hasCommand('bash')) {
    return 'npm test needs bash to run its test scripts: install Git for Windows (https://git-scm.com/download/win), which brings Git Bash, and run npm test again.'
  }

  if (environment.platform === 'linux') {
    const missing = ['dbus-run-session', 'gnome-keyring-daemon'].filter((name) => !environment.hasCommand(name))
    if (missing.length > 0) {
      return `npm test needs ${missing.join(' and ')} for a private test keychain (test/with-keyring.sh): ${install.linux('dbus gnome-keyring')}`
    }
  }

  // keytar is rebuilt for Node by build/native-deps.mjs when it does not load; that needs a compiler.
  if (!environment.keytarLoads() && !environment.keytarBuildable()) {
    const tools = {
      linux: install.linux('build-essential python3 libsecret-1-dev pkg-config'),
      darwin: 'xcode-select --install',
      win32: 'install Visual Studio Build Tools with "Desktop development with C++" and Python 3 (https://visualstudio.microsoft.com/visual-cpp-build-tools/)',
    }
    return `npm test needs the keychain module keytar built for this Node, and it cannot be built here: ${tools[environment.platform] ?? tools.linux}`
  }

  const ownChromium = environment.playwrightChromium()
  const hasChromium =
    (environment.platform === 'linux' && systemBrowser(environment.exists) !== undefined) || (ownChromium !== null && environment.exists(ownChromium))
  if (!hasChromium && !environment.installPlaywrightChromium()) {
    const how = environment.platform === 'linux' ? install.linux('chromium') : 'npx playwright install chromium (it needs to download about 150 MB)'
    return `npm test needs Chromium for the browser tests, and none is installed or could be downloaded: ${how}`
  }
  return null
}

/** This machine, for real. */
export function realEnvironment(root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')) {
  const require = createRequire(path.join(root, 'package.json'))
  const run = (command, args, options = {}) => spawnSync(command, args, { cwd: root, encoding: 'utf8', stdio: 'ignore', ...options })
  const hasCommand = (name) =>
    process.platform === 'win32' ? run('where', [name], { shell: true }).status === 0 : run('sh', ['-c', `command -v ${name}`]).status === 0
  return {
    platform: process.platform,
    nodeVersion: process.versions.node,
    hasCommand,
    exists: existsSync,
    // In this process: cheaper than a child, and a module built for Electron fails to load here just the same.
    keytarLoads() {
      try {
        require('keytar')
        return true
      } catch {
        return false
      }
    },
    keytarBuildable() {
      if (!hasCommand('python3') && !hasCommand('python')) return false
      if (process.platform === 'linux')
        return (hasCommand('c++') || hasCommand('g++')) && hasCommand('make') && run('pkg-config', ['--exists', 'libsecret-1']).status === 0
      if (process.platform === 'darwin') return hasCommand('c++') && hasCommand('make')
      // Windows: node-gyp finds Visual Studio itself; assume it can and let it say otherwise.
      return true
    },
    // Where Playwright keeps the Chromium of its pinned revision; loading playwright-core to ask takes seconds.
    playwrightChromium() {
      try {
        const folder = path.dirname(require.resolve('playwright-core/package.json'))
        const browsers = JSON.parse(readFileSync(path.join(folder, 'browsers.json'), 'utf8')).browsers
        const revision = browsers.find((browser) => browser.name === 'chromium')?.revision
        if (revision === undefined) return null
        const home = process.env.HOME ?? process.env.USERPROFILE ?? ''
        const cache =
          process.env.PLAYWRIGHT_BROWSERS_PATH ||
          (process.platform === 'darwin'
            ? path.join(home, 'Library', 'Caches', 'ms-playwright')
            : process.platform === 'win32'
              ? path.join(process.env.LOCALAPPDATA ?? path.join(home, 'AppData', 'Local'), 'ms-playwright')
              : path.join(process.env.XDG_CACHE_HOME ?? path.join(home, '.cache'), 'ms-playwright'))
        return path.join(cache, `chromium-${revision}`, 'INSTALLATION_COMPLETE')
      } catch {
        return null
      }
    },
    installPlaywrightChromium() {
      console.error('No Chromium found for the browser tests: downloading Playwright’s own…')
      const cli = require.resolve('playwright-core/cli')
      return run(process.execPath, [cli, 'install', 'chromium'], { stdio: 'inherit' }).status === 0
    },
  }
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const missing = findMissingPrerequisite(realEnvironment())
  if (missing !== null) {
    console.error(missing)
    process.exit(1)
  }
}
