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
  ['renderer/src/shell/bad.ts', "import { AddOutline } from '@vicons/ionicons5'\nexport const x = AddOutline", 'its own file'],
  ['preload/contract/bad.ts', "import { AppError } from '../../main/services/errors'\nexport const x = AppError", 'bottom layer'],
  ['main/sandbox/bad.ts', "import { channels } from '@contract'\nexport const x = channels", 'stands alone'],
  ['main/sandbox/reporting/bad.ts', "import { AppError } from '../../services/errors'\nexport const x = AppError", 'stands alone'],
  ['main/sandbox/reporting/bad2.ts', "import { TOTAL_LINE } from '../../../common/lines'\nexport const x = TOTAL_LINE", 'stands alone'],
  ['preload/contract/bad2.ts', "import { bridge } from '../bridge'\nexport const x = bridge", 'bottom layer'],
  ['common/bad.ts', "import { z } from 'zod'\nexport const x = z", 'runtime-neutral'],
  ['common/bad2.ts', "import { readFile } from 'node:fs/promises'\nexport const x = readFile", 'runtime-neutral'],
  ['common/bad3.ts', "import { ref } from 'vue'\nexport const x = ref", 'runtime-neutral'],
  ['common/bad4.ts', "import type { ReportDefinition } from '@contract'\nexport const x: ReportDefinition | null = null", 'runtime-neutral'],
  ['common/bad5.ts', "import { AppError } from '../main/services/errors'\nexport const x = AppError", 'runtime-neutral'],
  ['common/charts/bad.ts', "import type { ChartOption } from 'echarts/types/dist/shared'\nexport const x: ChartOption | null = null", 'runtime-neutral'],
  ['common/charts/bad2.ts', "import { AppError } from '../../main/services/errors'\nexport const x = AppError", 'runtime-neutral'],
  ['common/charts/bad3.ts', "import { TOTAL_LINE } from '../../common/lines'\nexport const x = TOTAL_LINE", 'runtime-neutral'],
  ['common/bad6.ts', "import { lineLabel } from '../renderer/src/domain/reports/lines'\nexport const x = lineLabel", 'runtime-neutral'],
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

  it('lets every layer but the demo backend import common/, and common/ its own files', async () => {
    const limits = (from: string) => `import { REPORT_LIMITS } from '${from}'\nexport const x = REPORT_LIMITS`
    expect(await layerErrors('common/good.ts', limits('./limits'))).toEqual([])
    expect(await layerErrors('common/charts/good.ts', limits('../limits'))).toEqual([])
    expect(
      await layerErrors('common/charts/good.ts', "import type { SeriesLike } from '../pivot/series-records'\nexport const x: SeriesLike | null = null"),
    ).toEqual([])
    expect(await layerErrors('preload/contract/good.ts', limits('../../common/limits'))).toEqual([])
    expect(await layerErrors('main/services/reports/good.ts', limits('../../../common/limits'))).toEqual([])
    expect(await layerErrors('main/handlers/good.ts', limits('../../common/limits'))).toEqual([])
    expect(await layerErrors('renderer/src/domain/reports/good.ts', limits('../../../../common/limits'))).toEqual([])
    expect(await layerErrors('renderer/src/components/reports/good.ts', limits('../../../../common/limits'))).toEqual([])
  })
})
