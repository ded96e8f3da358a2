/**
 * The preload: runs sandboxed, bundled into one CommonJS file (a sandboxed preload cannot
 * require our modules). It exposes exactly the contract's functions and nothing of ipcRenderer.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron'
import { buildApi } from './bridge'
import { contractNames } from './contract-names'

const api = buildApi(
  {
    invoke: (channel, input) => ipcRenderer.invoke(channel, input),
    subscribe(channel, listener) {
      // Strip the event object: it carries `sender`, which would hand the page ipcRenderer.
      const forward = (_event: IpcRendererEvent, payload: unknown) => listener(payload)
      ipcRenderer.on(channel, forward)
      return () => {
        ipcRenderer.removeListener(channel, forward)
      }
    },
  },
  contractNames,
)

contextBridge.exposeInMainWorld('api', api)
