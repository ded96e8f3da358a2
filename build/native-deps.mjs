#!/usr/bin/env node
// keytar is a native module: one build serves either plain Node (tests, CLI, web host) or
// Electron (the app), not both. This script makes node_modules right for the runtime about
// to use it, and does nothing when it already is.
//   node build/native-deps.mjs node      before tests
//   node build/native-deps.mjs electron  before starting the app
import { execFileSync, spawnSync } from 'node:child_process'
import { createRequire } from 'node:module'

const target = process.argv[2]
if (target !== 'node' && target !== 'electron') {
  console.error('usage: node build/native-deps.mjs node|electron')
  process.exit(2)
}
const require = createRequire(import.meta.url)
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'

function loadsInNode() {
  const probe = spawnSync(process.execPath, ['-e', "require('keytar')"], { encoding: 'utf8' })
  return probe.status === 0
}

if (target === 'node') {
  if (!loadsInNode()) {
    console.error('Rebuilding keytar for Node…')
    // From source: keytar's install script would otherwise download an unpinned prebuilt binary.
    execFileSync(npm, ['rebuild', 'keytar', '--build-from-source'], { stdio: 'inherit' })
  }
} else {
  // After an Electron rebuild, plain Node can no longer load keytar; that is the sign the
  // Electron build is in place. (Electron and Node never share a module ABI.)
  if (loadsInNode()) {
    console.error('Rebuilding native modules for Electron…')
    const builder = require.resolve('electron-builder/cli.js')
    execFileSync(process.execPath, [builder, 'install-app-deps'], { stdio: 'inherit' })
  }
}
