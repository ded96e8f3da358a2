import { beforeAll, describe, expect, it } from 'vitest'
import { channelNames, type ChannelName } from '@contract'
import { dispatch } from '../../../main/handlers/dispatch'
import { createHandlers, type Handlers } from '../../../main/handlers/handlers'
import { openJsonFields, validSamples } from '../../support/channel-samples'
import { createTestServices } from '../../support/services'

type Path = Array<string | number>

/** Every leaf of a sample, with its path: the places a hostile page could put something odd. */
function leaves(value: unknown, path: Path = []): Array<{ path: Path; value: unknown }> {
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, inner]) => leaves(inner, [...path, Array.isArray(value) ? Number(key) : key]))
  }
  return [{ path, value }]
}

function replaced(sample: unknown, path: Path, next: unknown): unknown {
  const copy = structuredClone(sample) as Record<string | number, unknown>
  let cursor = copy
  for (const key of path.slice(0, -1)) cursor = cursor[key] as Record<string | number, unknown>
  cursor[path[path.length - 1] as string | number] = next
  return copy
}

/** A value no scalar field accepts (ids may be numbers or strings, so swapping those proves nothing). */
function wrongType(value: unknown): unknown {
  return typeof value === 'boolean' ? 'yes' : ['wrong type']
}

const huge = 'x'.repeat(3_000_000)

describe('every handler fed malformed input', () => {
  let handlers: Handlers
  beforeAll(async () => {
    handlers = createHandlers(await createTestServices(), { nativeSaveDialog: false })
  })

  async function expectBadInput(channel: ChannelName, input: unknown): Promise<void> {
    const outcome = await dispatch(handlers, channel, input)
    // The message only on failure: written out for every case, it turned each 3 MB string to JSON.
    if (outcome.ok) expect.fail(`${channel} accepted ${JSON.stringify(input)?.slice(0, 200)}`)
    else {
      expect(outcome.error.code).toBe('bad_input')
      expect(outcome.error.message).toContain(channel)
      // The message stays readable: bounded, whatever the size of the input.
      expect(outcome.error.message.length).toBeLessThan(2_000)
    }
  }

  it.each(channelNames)('%s accepts its well-formed sample (no bad_input)', async (channel) => {
    const outcome = await dispatch(handlers, channel, validSamples[channel])
    if (!outcome.ok) expect(outcome.error.code).not.toBe('bad_input')
  })

  it.each(channelNames)('%s rejects non-objects, unknown keys and prototype pollution', async (channel) => {
    for (const input of [null, undefined, 42, 'text', [], [validSamples[channel]], true]) await expectBadInput(channel, input)
    await expectBadInput(channel, { ...validSamples[channel], unexpected: 1 })
    await expectBadInput(channel, JSON.parse(`{"__proto__": {"polluted": true}, ${JSON.stringify(validSamples[channel]).slice(1, -1) || '"x": 1'}}`))
    await expectBadInput(
      channel,
      Object.assign(JSON.parse(JSON.stringify(validSamples[channel])), JSON.parse('{"constructor": {"prototype": {"polluted": true}}}')),
    )
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it.each(channelNames)('%s rejects wrong types and huge strings in every field', async (channel) => {
    const open = openJsonFields[channel] ?? []
    for (const leaf of leaves(validSamples[channel])) {
      if (!open.includes(String(leaf.path[0]))) await expectBadInput(channel, replaced(validSamples[channel], leaf.path, wrongType(leaf.value)))
      if (typeof leaf.value === 'string') await expectBadInput(channel, replaced(validSamples[channel], leaf.path, huge))
    }
  })

  it('rejects unknown channels and keeps serving afterwards', async () => {
    const outcome = await dispatch(handlers, 'shell:exec', { command: 'rm -rf /' })
    expect(outcome).toMatchObject({ ok: false, error: { code: 'bad_input' } })
    const info = await dispatch(handlers, 'app:info', {})
    expect(info).toMatchObject({ ok: true, value: { version: '0.0.0-test' } })
  })

  it('turns a thrown exception into a typed error instead of crashing', async () => {
    const throwing = {
      ...handlers,
      'profiles:list': async () => {
        throw new TypeError('boom')
      },
    } as Handlers
    const outcome = await dispatch(throwing, 'profiles:list', {})
    expect(outcome).toMatchObject({ ok: false, error: { code: 'internal' } })
    expect(JSON.stringify(outcome)).not.toContain('at ')
  })

  it('strips result fields the contract does not name, so no secret can slip through', async () => {
    const leaky = {
      ...handlers,
      'profiles:list': async () => [{ ...(await handlers['profiles:create'](validSamples['profiles:create'] as never)), password: 'leaked-secret' }],
    } as Handlers
    const outcome = await dispatch(leaky, 'profiles:list', {})
    expect(outcome.ok).toBe(true)
    expect(JSON.stringify(outcome)).not.toContain('leaked-secret')
  })
})
