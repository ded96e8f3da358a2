import type { Command } from '../command'
import { writeJson } from '../io'

export const profilesList: Command = {
  group: 'profiles',
  name: 'list',
  args: [],
  options: [],
  connection: null,
  summary: 'list the saved connections (never their secrets)',
  async run({ services, io }) {
    await writeJson(io.stdout, await services.profiles.list())
  },
}

export const profileCommands: readonly Command[] = [profilesList]
