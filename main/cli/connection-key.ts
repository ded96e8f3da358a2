import { createHash } from 'node:crypto'
import type { OptionValues } from './options'
import type { CliServices } from './services'
import { UsageError } from './usage'

/**
 * Which connection's change log and journals a command uses. A saved connection is its id, the
 * same the app uses, so the app's log shows what the command line did and either can resume the
 * other's interrupted apply. A connection given by flags is named by a hash of its workflow
 * address, service id and user: the same flags find the same log again, and no address or
 * user name is written into a file name.
 */
export async function connectionKey(values: OptionValues, services: Pick<CliServices, 'profiles'>): Promise<string> {
  if (values.profile !== undefined) {
    const stored = await services.profiles.find(values.profile)
    if (stored === null) throw new UsageError(`No saved connection is named "${values.profile}". Run "profiles list" to see them.`)
    return stored.id
  }
  const address = (values['base-url'] ?? '').trim().replace(/\/+$/, '').toLowerCase()
  if (address === '') throw new UsageError('Say where to connect: --profile NAME, or --base-url, --auth-url and --service-id.')
  // Without --username the token in the environment signs in; the token itself is never part of the name.
  const who = values.username ?? '(token)'
  const hash = createHash('sha256')
    .update(JSON.stringify([address, values['service-id'] ?? '', who]))
    .digest('hex')
  return `address-${hash.slice(0, 24)}`
}
