#!/usr/bin/env node
// What the OS keychain holds under a service, read in a process of its own:
//   node test/support/keychain-read.mjs list SERVICE    prints [{account, password}] as JSON
//   node test/support/keychain-read.mjs clear SERVICE   the same, then deletes each entry
// keytar's findCredentials can crash the process reading while another deletes an item of the
// service; test/support/keychain.ts says why, starts this script, and runs it again when it dies.
import keytar from 'keytar'

const [action, service] = process.argv.slice(2)
if ((action !== 'list' && action !== 'clear') || !service) {
  process.stderr.write('usage: keychain-read.mjs list|clear SERVICE\n')
  process.exit(2)
}

const stored = await keytar.findCredentials(service)
if (action === 'clear') for (const { account } of stored) await keytar.deletePassword(service, account)
process.stdout.write(JSON.stringify(stored))
