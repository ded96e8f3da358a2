import { EventEmitter } from 'node:events'
import { promises as fs } from 'node:fs'
import path from 'node:path'
import type { MenuItemConstructorOptions } from 'electron'
import { describe, expect, it, vi } from 'vitest'
import { startApp } from '../../../main/app'
import { createFakeElectron } from '../../support/fake-electron'
import { createMemoryKeychain } from '../../support/memory-keychain'
import { temporaryFolder } from '../../support/services'

/** The app on a fresh stand-in electron, and a way to call its bridge as the page does. */
async function start() {
  const out = await temporaryFolder('adops-out-')
  await fs.mkdir(path.join(out, 'renderer'), { recursive: true })
  await fs.writeFile(path.join(out, 'renderer', 'index.html'), '<!doctype html><title>AdOps Desk</title>')
  const fake = createFakeElectron(await temporaryFolder())
  await startApp(fake.electron, {
    mainDir: path.join(out, 'main'),
    openKeychain: async () => createMemoryKeychain(),
    loadSandbox: () => Promise.reject(new Error('no demo in this test')),
    // Neither the test runner's `process` nor the user's scheduler.
    processEvents: new EventEmitter(),
    runSchedulerCommand: async () => ({ code: 127, stdout: '', stderr: '' }),
  })
  const invoke = async (channel: string, input: unknown) => {
    const window = fake.windows.at(-1)
    const handler = fake.handlers.get(channel)
    if (!window || !handler) throw new Error('the app did not start')
    return handler({ sender: window.webContents, senderFrame: window.webContents.mainFrame }, input)
  }
  const closeWindow = () => {
    fake.windows.at(-1)?.emit('closed')
    fake.app.emit('window-all-closed')
  }
  return { fake, invoke, closeWindow }
}

const clickMenu = (menu: unknown, label: RegExp) => {
  const item = (menu as { template: MenuItemConstructorOptions[] }).template.find((entry) => label.test(String(entry.label)))
  ;(item?.click as (() => void) | undefined)?.()
}

describe('keep running when the window closes (stand-in electron)', () => {
  it('quits when the last window closes, by default', async () => {
    const { fake, invoke, closeWindow } = await start()
    expect(await invoke('schedules:list', {})).toMatchObject({ ok: true, value: { keepRunningInBackground: false, backgroundSupported: true } })
    closeWindow()
    await vi.waitFor(() => expect(fake.app.quitCalled).toBe(true))
    expect(fake.trays).toEqual([])
  })

  it('with the setting on, stays in the tray; the tray opens the window again and quits', async () => {
    const { fake, invoke, closeWindow } = await start()
    expect(await invoke('schedules:setKeepRunning', { keepRunning: true })).toEqual({ ok: true, value: { keepRunningInBackground: true } })
    closeWindow()
    await vi.waitFor(() => expect(fake.trays).toHaveLength(1))
    expect(fake.app.quitCalled).toBe(false)
    const tray = fake.trays[0]
    expect(tray?.tooltip).toBe('AdOps Desk: schedules keep running')

    clickMenu(tray?.menu, /^Open/)
    await vi.waitFor(() => expect(fake.windows).toHaveLength(2))
    expect(tray?.destroyed).toBe(true)

    closeWindow()
    await vi.waitFor(() => expect(fake.trays).toHaveLength(2))
    clickMenu(fake.trays[1]?.menu, /^Quit/)
    expect(fake.app.quitCalled).toBe(true)
  })

  it('hands wake from sleep (powerMonitor resume) to the scheduler', async () => {
    const { fake } = await start()
    expect(fake.powerMonitor.listeners.get('resume')).toHaveLength(1)
    // The scheduler looks again; nothing is due, so nothing breaks.
    expect(() => fake.powerMonitor.emit('resume')).not.toThrow()
  })
})
