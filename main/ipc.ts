import type { IpcMain, IpcMainInvokeEvent } from 'electron'
import { channelNames } from '@contract'
import { dispatch } from './handlers/dispatch'
import type { Handlers } from './handlers/handlers'

/**
 * Only our own page, in its main frame, may call main. A frame injected by content (an
 * iframe, a navigated page) gets a refusal, not a handler.
 */
export function isTrustedSender(event: IpcMainInvokeEvent, isAppUrl: (url: string) => boolean): boolean {
  const frame = event.senderFrame
  if (!frame || frame !== event.sender.mainFrame) return false
  return isAppUrl(frame.url)
}

/** Registers one handler per contract channel: check the sender, then the shared dispatch validates and calls the service. */
export function registerIpc(ipcMain: IpcMain, handlers: Handlers, isAppUrl: (url: string) => boolean): void {
  for (const channel of channelNames) {
    ipcMain.handle(channel, async (event, input: unknown) => {
      if (!isTrustedSender(event, isAppUrl)) {
        return { ok: false, error: { code: 'forbidden', message: 'This request did not come from the AdOps Desk window and was refused.' } }
      }
      return dispatch(handlers, channel, input)
    })
  }
}
