import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { channelNames, channels, eventNames } from '@contract'

// The bridge is the app's attack surface. Growing it must be a visible, reviewed change:
// update the snapshot on purpose (npx vitest -u) and say why in the commit.
describe('the IPC surface', () => {
  it('lists exactly these channels and events', () => {
    expect({ channels: [...channelNames].sort(), events: [...eventNames].sort() }).toMatchSnapshot()
  })

  it('names every channel domain:verb', () => {
    for (const name of channelNames) expect(name).toMatch(/^[a-z]+:[a-z][A-Za-z]*$/)
  })

  it('describes the input shape of every channel', () => {
    const shapes = Object.fromEntries(channelNames.map((name) => [name, z.toJSONSchema(channels[name].input, { io: 'input', unrepresentable: 'any' })]))
    expect(shapes).toMatchSnapshot()
  })
})
