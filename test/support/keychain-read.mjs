#!/usr/bin/env node
// What the OS keychain holds under a service, read in a process of its own:
//   node test/support/keychain-read.mjs list SERVICE    prints [{account, password}] as JSON
//   node test/support/keychain-read.mjs clear SERVICE   the same, then deletes each entry
// keytar's findCredentials lists the items and then reads each one's secret; an item the app
// replaces in between (a password saved again) has no secret by then, and keytar turns that
// null into a C++ string: a segmentation fault (atom/node-keytar#477). A test reading while the
// app writes must not take its Playwright worker down with it, so the read happens here, and
// test/support/keychain.ts makes it again when this process dies.
import keytar from 'keytar'

const [action, service] = process.argv.slice(2)
if ((action !== 'list' && action !== 'clear') || !service) {
  process.stderr.write('usage: keychain-read.mjs list|clear SERVICE\n')
  process.exit(2)
}

const stored = await keytar.findCredentials(service)
if (action === 'clear') for (const { account } of stored) await keytar.deletePassword(service, account)
process.stdout.write(JSON.stringify(stored))
