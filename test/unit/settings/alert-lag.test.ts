import { describe, expect, it } from 'vitest'
import { dispatch } from '../../../main/handlers/dispatch'
import { createHandlers } from '../../../main/handlers/handlers'
import { createTestServices, temporaryFolder } from '../../support/services'

/** Issue 22: the data lag alert checks leave out (`alertLagHours`) is a setting the page can change, within 0–48 hours. */
describe('the alert checks’ data lag', () => {
  it('is read and changed through the bridge, remembered across restarts, and refused out of bounds', async () => {
    const userDataDir = await temporaryFolder()
    const services = await createTestServices({ userDataDir })
    const handlers = createHandlers(services, { nativeSaveDialog: false })
    expect(await dispatch(handlers, 'app:alertLagHours', {})).toEqual({ ok: true, value: { hours: 4 } })
    expect(await dispatch(handlers, 'app:setAlertLagHours', { hours: 6 })).toEqual({ ok: true, value: { hours: 6 } })
    expect((await services.settings.read()).alertLagHours).toBe(6)
    for (const hours of [-1, 49, Number.NaN]) {
      expect(await dispatch(handlers, 'app:setAlertLagHours', { hours })).toMatchObject({ ok: false, error: { code: 'bad_input' } })
    }
    expect((await services.settings.read()).alertLagHours).toBe(6)
    await services.close()
    const restarted = await createTestServices({ userDataDir })
    expect(await dispatch(createHandlers(restarted, { nativeSaveDialog: false }), 'app:alertLagHours', {})).toEqual({ ok: true, value: { hours: 6 } })
    await restarted.close()
  })
})
