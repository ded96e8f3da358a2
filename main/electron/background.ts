/**
 * Keep running when the window closes (issue 22): with the setting on, closing the last window
 * leaves the app in the tray (the menu bar on macOS) so the scheduler in main keeps its timer;
 * the tray's menu opens the window again or quits. With it off, closing the window quits, as before.
 */
import type { Tray } from 'electron'
import type { ElectronModule } from './types'

/** build/icons/32x32.png, inlined: the packaged app carries only out/, and the tray needs its image at run time. */
export const TRAY_ICON_PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAACAAAAAgCAYAAABzenr0AAADoUlEQVR4nLxXzUtUURT/3TtvZqwgZiwCFTIhMippktQx86NVJNGfUFJtAhe5aNF/YKtaujAId1Gg4aKWQYtGrZhN5VKoBAV12ki+ceZ25uO9d+999/nemPRgOHO/zjm/87vn3HstSF/m4VYqXipPMCDLyshwsBMQAiTB6lJuM6UfJOFKVpXu/HUGkeeC5aj5dO5FuuDYZM6fy+ObN2j2NC1udRbXjNSU1Yx5ypkmeUibefpWeRn3X880v3Ud6B3fuE5z3rEApHLb328yHr6eCzH6kpxgXQ8K6Sar9JUWtqjI/WHeH3K9v66PYbVkxbp4kpfuMMFaZM9Vo0KjQ0gc1zhXkattWSoRLqM1YZdvWzGGLAxGmBteORKQ+k0I1T0D11l9fd0JiCwnZVkVOSTk0CISFHYHub5e7veccUEJlrWo0a5zDl/YoiKvST9yoSCX9LZzM+c4cM7lbJCd59zIeTByR3a0xTA/ncL88zROtcYica46Wddn5hyhnF/LJtwKOnIlGY1zQyR5kIdhnA/XHdixgb5LcYMxc0R1UHw/eX7hjIXj6eooPuVtrPwo4Tz1mfYSfMiFos/aT56PSOH/uGRXx4aIhuXl7aDdrlVCSNnSYJ6TxxjqS1aN2xT+L/ki/XbR0x1HPGbiXBgiqWRBNOSO7L0YR1NTDf1nCv9ukaFoC3z7vovujGVAznyg4N8D0fN8uD8phb/oIs4t7mCQaAjjXKfDaqS2HybkPZm468DpDgsnqR5UxpMJhm7KhiOHGP5s78W5bEeQAyL4PGdaBRvoSSIWc+3j1qgXDefr603gw3vbxzmUCHt6eRjnsudD/QmEfQMDib051/RaMCJX2xV5LAWc67SqRn7+KuPR49/K+OTkUbS1cXSetdDczFDYkG9AMh3azYgbkcs1vNY/SJuPsRrKhUXbVzmXFuzqWGVOliIVxLnX79yMRLTzXA7/AhnT83wxZ7vj/VcTWlbpKSkVv5v3NoW8B/RiwZRK6b8bRr0lq6ko6/MNNnaeh+W5rlfPrkolXDNxrp4Ne5znIXnu41yld61SCfOR73AAzBUT0TlXsgB5TheCPIzGop3nYXnOA/ZQHSw918psihoFM+c4cM7hOVewhJji9FBcobfa3f/BubyeKvrY5BzZrsx/NZOerbzVKs+lRs/zRjiv61ulV/Lok9n0m2rhgvSNjW2ldkqYIGeytDRDyk78e55XnVqnCplnZZEr0vP82Zz3PP8LAAD//5Chz4EAAAAGSURBVAMAKS8Mw/aRVgEAAAAASUVORK5CYII='

export interface BackgroundPresence {
  /** Shows the tray icon (once); the window is gone and the app stays. */
  show(): void
  /** Removes the tray icon (a window is open again, or the app quits). */
  hide(): void
  readonly shown: boolean
}

export function createBackgroundPresence(
  electron: Pick<ElectronModule, 'Tray' | 'Menu' | 'nativeImage'>,
  actions: { open(): void; quit(): void; appName: string },
): BackgroundPresence {
  let tray: Tray | null = null
  return {
    show() {
      if (tray !== null) return
      tray = new electron.Tray(electron.nativeImage.createFromDataURL(`data:image/png;base64,${TRAY_ICON_PNG_BASE64}`))
      tray.setToolTip(`${actions.appName}: schedules keep running`)
      tray.setContextMenu(
        electron.Menu.buildFromTemplate([
          { label: `Open ${actions.appName}`, click: () => actions.open() },
          { type: 'separator' },
          { label: `Quit ${actions.appName}`, click: () => actions.quit() },
        ]),
      )
      // A click on the icon opens the window where the platform sends clicks (Windows, most Linux trays).
      tray.on('click', () => actions.open())
    },
    hide() {
      tray?.destroy()
      tray = null
    },
    get shown() {
      return tray !== null
    },
  }
}
