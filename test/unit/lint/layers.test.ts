import path from 'node:path'
import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

const root = path.join(import.meta.dirname, '..', '..', '..')
const eslint = new ESLint({ cwd: root })

/** Lints `source` as if it were the file at `file` and returns the layer rule's messages. */
async function layerErrors(file: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: path.join(root, file) })
  return (result?.messages ?? []).filter((message) => message.ruleId === 'no-restricted-imports').map((message) => message.message)
}

// Each wrong-way import of docs/architecture.md's house rules, as a one-line fixture placed where it would do harm.
const wrongWay: Array<[string, string, string]> = [
  ['main/services/entities/bad.ts', "import { createSaveDialog } from '../../electron/dialogs'\nexport const x = createSaveDialog", 'Electron adapters'],
  ['main/services/reports/bad.ts', "import { BrowserWindow } from 'electron'\nexport const x = BrowserWindow", 'electron'],
  ['main/services/workspace/bad.ts', "import { createHandlers } from '../../handlers/handlers'\nexport const x = createHandlers", 'handlers'],
  ['main/services/connection/bad.ts', "import { startSandbox } from '../../sandbox'\nexport const x = startSandbox", 'demo backend'],
  ['main/services/connection/bad2.ts', "import { run } from '../../cli/run'\nexport const x = run", 'CLI'],
  ['renderer/src/stores/bad.ts', "import { createServices } from '../../../main/services'\nexport const x = createServices", 'window.api'],
  ['renderer/src/stores/bad2.ts', "import { readFile } from 'node:fs/promises'\nexport const x = readFile", 'window.api'],
  ['preload/contract/bad.ts', "import { AppError } from '../../main/services/errors'\nexport const x = AppError", 'bottom layer'],
  ['main/sandbox/bad.ts', "import { channels } from '@contract'\nexport const x = channels", 'stands alone'],
  ['main/sandbox/reporting/bad.ts', "import { AppError } from '../../services/errors'\nexport const x = AppError", 'stands alone'],
]

describe('layer rules (eslint no-restricted-imports)', () => {
  it.each(wrongWay)('refuses a wrong-way import in %s', async (file, source, says) => {
    const errors = await layerErrors(file, source)
    expect(errors.length).toBe(1)
    expect(errors[0]).toContain(says)
  })

  it('lets the right-way imports through', async () => {
    expect(
      await layerErrors(
        'main/services/entities/good.ts',
        "import { AppError } from '../errors'\nimport type { Entity } from '@contract'\nexport const x: Entity | AppError | null = null",
      ),
    ).toEqual([])
    expect(await layerErrors('main/handlers/good.ts', "import { createServices } from '../services'\nexport const x = createServices")).toEqual([])
    expect(await layerErrors('renderer/src/stores/good.ts', "import type { Profile } from '@contract'\nexport const x: Profile | null = null")).toEqual([])
  })
})
