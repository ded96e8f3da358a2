import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { strToU8, zipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { readXlsxFile, xlsxWorkerScript } from '../../../main/services/bulk/xlsx-in-worker'
import { freshBuild } from '../../support/child-process'

/**
 * Every build that runs main's services (the app's out/main, the command line's out/cli, the web
 * host's out/web) ships the XLSX reader's worker as a file of its own that no chunk imports, and
 * the built code that starts it finds it: a workbook is read there, never on main's thread.
 */
const BUILDS = ['out/main/index.js', 'out/cli/index.js', 'out/web/preview-web.js']
const NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
const cell = (reference: string, text: string): string => `<c r="${reference}" t="inlineStr"><is><t>${text}</t></is></c>`
const workbook = zipSync({
  'xl/worksheets/sheet1.xml': strToU8(
    `<worksheet ${NS}><sheetData><row r="1">${cell('A1', 'name')}</row><row r="2">${cell('A2', 'Acme')}</row></sheetData></worksheet>`,
  ),
})

/** Every .js file of a build folder, its assets/ folder included. */
function builtFiles(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.js'))
    .map((name) => path.join(folder, name))
}

describe.each(BUILDS)('the XLSX worker of %s', (entry) => {
  const folder = path.dirname(freshBuild(entry))
  const workerFile = path.join(folder, 'xlsx-worker.js')

  it('is a file of its own beside the entry, imported by no chunk', () => {
    const files = builtFiles(folder)
    expect(files).toContain(workerFile)
    for (const file of files) if (file !== workerFile) expect(readFileSync(file, 'utf8'), file).not.toMatch(/import\s*\(?\s*["'][^"']*xlsx-worker\.js["']/)
  })

  it('is the script the built chunk that starts it finds, and it reads a workbook', async () => {
    // The chunk holding xlsx-in-worker.ts, known by the source fallback it names (the worker's own comment names it too).
    const starters = builtFiles(folder).filter((file) => file !== workerFile && readFileSync(file, 'utf8').includes('xlsx-worker-source.mjs'))
    expect(starters).toHaveLength(1)
    const found = xlsxWorkerScript(pathToFileURL(starters[0] ?? '').href)
    expect(found.href).toBe(pathToFileURL(workerFile).href)
    const read = await readXlsxFile(workbook, { workerScript: found })
    expect(read.table).toMatchObject({ header: ['name'], rows: [{ row: 2, cells: ['Acme'] }], problems: [] })
  })
})
