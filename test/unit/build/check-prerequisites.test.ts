import { describe, expect, it } from 'vitest'
import { findMissingPrerequisite, SYSTEM_BROWSERS, SYSTEM_CHROMIUM, systemBrowser, type PrerequisiteEnvironment } from '../../../build/check-prerequisites.mjs'

const PLAYWRIGHT_CHROMIUM = '/home/newcomer/.cache/ms-playwright/chromium-1/INSTALLATION_COMPLETE'

/** A machine with everything; each test takes one thing away. */
function machine(change: Partial<PrerequisiteEnvironment> & { commands?: string[]; files?: string[] } = {}): PrerequisiteEnvironment & { downloads: number } {
  const commands = new Set(change.commands ?? ['bash', 'dbus-run-session', 'gnome-keyring-daemon'])
  const files = new Set(change.files ?? [SYSTEM_CHROMIUM])
  const environment = {
    platform: 'linux',
    nodeVersion: '20.19.0',
    hasCommand: (name: string) => commands.has(name),
    exists: (file: string) => files.has(file),
    keytarLoads: () => true,
    keytarBuildable: () => true,
    playwrightChromium: () => PLAYWRIGHT_CHROMIUM,
    installPlaywrightChromium: () => {
      environment.downloads += 1
      return false
    },
    downloads: 0,
    ...change,
  }
  return environment
}

describe('the prerequisites npm test checks first', () => {
  it('are all there: nothing to say, nothing downloaded', () => {
    const ready = machine()
    expect(findMissingPrerequisite(ready)).toBeNull()
    expect(ready.downloads).toBe(0)
    expect(findMissingPrerequisite(machine({ platform: 'darwin', commands: [], files: [PLAYWRIGHT_CHROMIUM] }))).toBeNull()
    expect(findMissingPrerequisite(machine({ platform: 'win32', commands: ['bash'], files: [PLAYWRIGHT_CHROMIUM] }))).toBeNull()
  })

  it('name an old Node', () => {
    expect(findMissingPrerequisite(machine({ nodeVersion: '20.11.1' }))).toBe(
      'npm test needs Node.js 20.19 or newer (this is 20.11.1): install it from https://nodejs.org or with your version manager.',
    )
    expect(findMissingPrerequisite(machine({ nodeVersion: '18.20.0' }))).toMatch(/^npm test needs Node.js 20.19 or newer/)
    expect(findMissingPrerequisite(machine({ nodeVersion: '22.1.0' }))).toBeNull()
  })

  it('name the secret service tools test/with-keyring.sh needs on Linux, and only there', () => {
    expect(findMissingPrerequisite(machine({ commands: ['bash', 'dbus-run-session'] }))).toBe(
      'npm test needs gnome-keyring-daemon for a private test keychain (test/with-keyring.sh): sudo apt-get install dbus gnome-keyring',
    )
    expect(findMissingPrerequisite(machine({ commands: ['bash'] }))).toBe(
      'npm test needs dbus-run-session and gnome-keyring-daemon for a private test keychain (test/with-keyring.sh): sudo apt-get install dbus gnome-keyring',
    )
    expect(findMissingPrerequisite(machine({ platform: 'darwin', commands: ['bash'], files: [PLAYWRIGHT_CHROMIUM] }))).toBeNull()
  })

  it('name bash on Windows', () => {
    expect(findMissingPrerequisite(machine({ platform: 'win32', commands: [], files: [PLAYWRIGHT_CHROMIUM] }))).toBe(
      'npm test needs bash to run its test scripts: install Git for Windows (https://git-scm.com/download/win), which brings Git Bash, and run npm test again.',
    )
  })

  it('name the build tools when the native keychain module is not built and cannot be', () => {
    const unbuilt = { keytarLoads: () => false, keytarBuildable: () => false }
    expect(findMissingPrerequisite(machine(unbuilt))).toBe(
      'npm test needs the keychain module keytar built for this Node, and it cannot be built here: sudo apt-get install build-essential python3 libsecret-1-dev pkg-config',
    )
    expect(findMissingPrerequisite(machine({ ...unbuilt, platform: 'darwin', files: [PLAYWRIGHT_CHROMIUM] }))).toBe(
      'npm test needs the keychain module keytar built for this Node, and it cannot be built here: xcode-select --install',
    )
    expect(findMissingPrerequisite(machine({ ...unbuilt, platform: 'win32', files: [PLAYWRIGHT_CHROMIUM] }))).toMatch(
      /^npm test needs the keychain module keytar built for this Node, and it cannot be built here: install Visual Studio Build Tools/,
    )
    // Not built but buildable: build/native-deps.mjs rebuilds it, nothing to say.
    expect(findMissingPrerequisite(machine({ keytarLoads: () => false }))).toBeNull()
  })

  it('download Playwright’s Chromium when there is none, and name what to install when that fails', () => {
    const noBrowser = machine({ files: [] })
    expect(findMissingPrerequisite(noBrowser)).toBe(
      'npm test needs Chromium for the browser tests, and none is installed or could be downloaded: sudo apt-get install chromium',
    )
    expect(noBrowser.downloads).toBe(1)
    expect(findMissingPrerequisite(machine({ platform: 'darwin', files: [] }))).toBe(
      'npm test needs Chromium for the browser tests, and none is installed or could be downloaded: npx playwright install chromium (it needs to download about 150 MB)',
    )
    // Playwright's own, downloaded before or now: fine.
    expect(findMissingPrerequisite(machine({ files: [PLAYWRIGHT_CHROMIUM] }))).toBeNull()
    expect(findMissingPrerequisite(machine({ files: [], installPlaywrightChromium: () => true }))).toBeNull()
    // A system Chromium elsewhere than Linux is not what the tests use.
    expect(findMissingPrerequisite(machine({ platform: 'darwin', files: [SYSTEM_CHROMIUM], playwrightChromium: () => null }))).toMatch(
      /^npm test needs Chromium/,
    )
  })

  it('take the Chromium headless shell for the browser tests first, then full Chromium', () => {
    const shell = '/usr/bin/chromium-headless-shell'
    expect(SYSTEM_BROWSERS).toEqual([shell, SYSTEM_CHROMIUM])
    expect(systemBrowser((file) => file === shell || file === SYSTEM_CHROMIUM)).toBe(shell)
    expect(systemBrowser((file) => file === SYSTEM_CHROMIUM)).toBe(SYSTEM_CHROMIUM)
    expect(systemBrowser(() => false)).toBeUndefined()
    // The shell alone is a browser for the tests: nothing to download.
    const shellOnly = machine({ files: [shell] })
    expect(findMissingPrerequisite(shellOnly)).toBeNull()
    expect(shellOnly.downloads).toBe(0)
  })

  it('say one line each, and the first missing thing first', () => {
    const bare = machine({ commands: [], files: [], keytarLoads: () => false, keytarBuildable: () => false })
    const line = findMissingPrerequisite(bare)
    expect(line).toMatch(/^npm test needs dbus-run-session and gnome-keyring-daemon/)
    expect(line).not.toContain('\n')
    expect(bare.downloads).toBe(0)
  })
})
