// Just enough of the electron module for main/index.ts to choose between the command line
// and the app. With STAND_IN_PACKAGED=1 it behaves as the packaged binary: process.argv is
// [binary, ...args] there (no script path), and app.isPackaged is true.
const packaged = process.env.STAND_IN_PACKAGED === '1'
if (packaged) process.argv.splice(1, 1)

function refuse(name) {
  return () => {
    throw new Error(`the stand-in electron has no ${name}: the app was started instead of the command line`)
  }
}

export const app = {
  isPackaged: packaged,
  exit(code) {
    process.exit(code)
  },
  enableSandbox: refuse('app.enableSandbox'),
  requestSingleInstanceLock: refuse('app.requestSingleInstanceLock'),
}

export const dialog = {
  showErrorBox(title, message) {
    process.stderr.write(`stand-in electron: ${title}: ${message}\n`)
  },
}

export const protocol = { registerSchemesAsPrivileged: refuse('protocol.registerSchemesAsPrivileged'), handle: refuse('protocol.handle') }
