import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dispatch } from '../../../main/handlers/dispatch'
import { createHandlers, type Handlers } from '../../../main/handlers/handlers'
import { sampleDefinition, sampleRule } from '../../support/channel-samples'
import { createTestServices, type TestServices } from '../../support/services'

/** The alert channels through the bridge's own dispatch: rules saved, read back, following a renamed preset. */
describe('alert channels', () => {
  let services: TestServices
  let handlers: Handlers
  beforeAll(async () => {
    services = await createTestServices()
    handlers = createHandlers(services, { nativeSaveDialog: false })
    await dispatch(handlers, 'presets:save', { name: 'Weekly EU', definition: sampleDefinition, replace: false })
  })
  afterAll(() => services?.close())

  it("saves and reads a preset's rules, and the rules follow the preset when it is renamed", async () => {
    expect(await dispatch(handlers, 'alerts:rules', { preset: 'Weekly EU' })).toEqual({ ok: true, value: { preset: 'Weekly EU', rules: [], savedAt: null } })
    const saved = await dispatch(handlers, 'alerts:saveRules', { preset: 'weekly eu', rules: [sampleRule] })
    expect(saved).toMatchObject({ ok: true, value: { preset: 'Weekly EU', rules: [sampleRule] } })
    await dispatch(handlers, 'presets:rename', { name: 'Weekly EU', newName: 'Weekly Europe' })
    expect(await dispatch(handlers, 'alerts:rules', { preset: 'Weekly Europe' })).toMatchObject({ ok: true, value: { rules: [sampleRule] } })
  })

  it('refuses two rules with one id, and rules for a preset that does not exist', async () => {
    const twice = await dispatch(handlers, 'alerts:saveRules', { preset: 'Weekly Europe', rules: [sampleRule, sampleRule] })
    expect(twice).toMatchObject({ ok: false, error: { code: 'bad_input', message: expect.stringContaining('already called "drop-30"') } })
    expect(await dispatch(handlers, 'alerts:saveRules', { preset: 'Nope', rules: [sampleRule] })).toMatchObject({ ok: false, error: { code: 'not_found' } })
  })

  it('answers not_found for an alert that is not kept', async () => {
    expect(await dispatch(handlers, 'alerts:get', { id: 'missing' })).toMatchObject({ ok: false, error: { code: 'not_found' } })
    expect(await dispatch(handlers, 'alerts:fired', {})).toEqual({ ok: true, value: { total: 0, alerts: [] } })
  })
})
