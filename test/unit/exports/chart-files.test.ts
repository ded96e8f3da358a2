import { promises as fs } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { CHART_FILE_LIMITS, chartFileSchema, type ChartFile } from '@contract'
import { createChartFiles } from '../../../main/services/exports/chart-files'
import type { AtomicFs } from '../../../main/services/files/atomic'
import type { SaveFileDialog } from '../../../main/services/files/dialogs'
import { createFolderDialogs, dialogFolders } from '../../../main/services/files/folder-dialogs'
import { temporaryFolder } from '../../support/services'
import { makePng } from './png-fixture'

const png = makePng(40, 20)
const svg = '<?xml version="1.0"?>\n<svg width="40" height="20" xmlns="http://www.w3.org/2000/svg"><text>Revenue</text></svg>'

/** A save dialog that answers what the test says and remembers the names it was offered. */
function scriptedDialog(answers: Array<string | null>): SaveFileDialog & { offered: string[] } {
  const offered: string[] = []
  return {
    offered,
    async chooseSavePath(defaultName) {
      offered.push(defaultName)
      return answers.shift() ?? null
    },
  }
}

/** What the page would send, checked by the contract as main's dispatch does. */
const parse = (input: unknown) => chartFileSchema.safeParse(input)

describe('what exports:saveChart accepts as content', () => {
  it('accepts a whole PNG as base64, an SVG document and a table', () => {
    expect(parse({ format: 'png', name: 'Chart', content: png.toString('base64') }).success).toBe(true)
    expect(parse({ format: 'svg', name: 'Chart', content: svg }).success).toBe(true)
    expect(parse({ format: 'csv', name: 'Chart', table: { columns: ['Date', 'Revenue'], rows: [['2026-11-01', 12.5]] } }).success).toBe(true)
  })

  it.each([
    ['a data: URL (the prefix is the page’s to drop)', `data:image/png;base64,${png.toString('base64')}`],
    ['a JPEG', Buffer.from([0xff, 0xd8, 0xff, 0xe0, ...new Array(80).fill(0)]).toString('base64')],
    ['text that happens to be base64', Buffer.from('not a picture at all, just words '.repeat(4)).toString('base64')],
    ['a PNG cut short', png.subarray(0, png.length - 12).toString('base64')],
    ['SVG text sent as PNG', Buffer.from(svg).toString('base64')],
    ['not base64', '<svg>'],
  ])('refuses as PNG %s', (_what, content) => {
    expect(parse({ format: 'png', name: 'Chart', content }).success).toBe(false)
  })

  it.each([
    ['an HTML page', '<!doctype html><html><body><svg xmlns="http://www.w3.org/2000/svg"></svg></body></html>'],
    ['an SVG root outside the SVG namespace', '<svg width="1"></svg>'],
    ['an SVG cut short', '<svg xmlns="http://www.w3.org/2000/svg"><text>Rev'],
    ['an SVG that runs a script', '<svg xmlns="http://www.w3.org/2000/svg"><script>fetch("https://evil.example")</script></svg>'],
    ['a PNG sent as SVG', png.toString('latin1')],
  ])('refuses as SVG %s', (_what, content) => {
    expect(parse({ format: 'svg', name: 'Chart', content }).success).toBe(false)
  })

  it('refuses csv cells with a NUL, rows of the wrong width, and content where a table belongs', () => {
    expect(parse({ format: 'csv', name: 'Chart', table: { columns: ['Date'], rows: [['2026\u0000']] } }).success).toBe(false)
    expect(parse({ format: 'csv', name: 'Chart', table: { columns: ['Date', 'Revenue'], rows: [['2026-11-01']] } }).success).toBe(false)
    expect(parse({ format: 'csv', name: 'Chart', content: 'Date,Revenue\r\n' }).success).toBe(false)
  })

  it('refuses content over its bound, whatever it is', () => {
    const overPng = 'A'.repeat(CHART_FILE_LIMITS.pngBase64Chars + 4)
    expect(parse({ format: 'png', name: 'Chart', content: overPng }).success).toBe(false)
    const overSvg = `<svg xmlns="http://www.w3.org/2000/svg">${' '.repeat(CHART_FILE_LIMITS.svgChars)}</svg>`
    expect(parse({ format: 'svg', name: 'Chart', content: overSvg }).success).toBe(false)
    const wide = Array.from({ length: CHART_FILE_LIMITS.csvColumns + 1 }, (_, index) => `S${index}`)
    expect(parse({ format: 'csv', name: 'Chart', table: { columns: wide, rows: [] } }).success).toBe(false)
    // Within the row and column bounds, but too many cells in all.
    const columns = Array.from({ length: 1_000 }, (_, index) => `S${index}`)
    const rows = Array.from({ length: CHART_FILE_LIMITS.csvCells / 1_000 + 1 }, () => new Array<number>(1_000).fill(1))
    expect(parse({ format: 'csv', name: 'Chart', table: { columns, rows } }).success).toBe(false)
  })
})

describe('saving a chart file', () => {
  it('writes the decoded PNG where the dialog says, with .png forced, and answers only the base name', async () => {
    const folder = await temporaryFolder()
    const dialog = scriptedDialog([path.join(folder, 'mine')])
    const files = createChartFiles({ dialog })
    expect(await files.save({ format: 'png', name: 'Weekly EU', content: png.toString('base64') })).toEqual({ fileName: 'mine.png' })
    expect(dialog.offered).toEqual(['Weekly EU.png'])
    expect(await fs.readFile(path.join(folder, 'mine.png'))).toEqual(png)
    expect(await fs.readdir(folder)).toEqual(['mine.png'])
  })

  it('forces .svg and .csv as well, and offers the name with its extension', async () => {
    const folder = await temporaryFolder()
    const dialog = scriptedDialog([path.join(folder, 'chart.txt'), path.join(folder, 'numbers')])
    const files = createChartFiles({ dialog })
    expect(await files.save({ format: 'svg', name: 'Chart', content: svg })).toEqual({ fileName: 'chart.txt.svg' })
    expect(await files.save({ format: 'csv', name: 'Chart', table: { columns: ['Date', 'Revenue'], rows: [['2026-11-01', 12.5]] } })).toEqual({
      fileName: 'numbers.csv',
    })
    expect(dialog.offered).toEqual(['Chart.svg', 'Chart.csv'])
    expect(await fs.readFile(path.join(folder, 'chart.txt.svg'), 'utf8')).toBe(svg)
  })

  it('makes a name from the page a base name: no folders, no climbing out of the exports folder', async () => {
    const userData = await temporaryFolder()
    const dialog = scriptedDialog([])
    const files = createChartFiles({ dialog })
    for (const name of ['../../../etc/passwd', '..\\..\\Windows\\win.ini', '/tmp/absolute', '..', 'C:\\evil']) {
      await files.save({ format: 'svg', name, content: svg })
    }
    for (const offered of dialog.offered) {
      expect(offered).not.toMatch(/[/\\:]/)
      expect(offered).not.toMatch(/^\./)
      expect(offered.endsWith('.svg')).toBe(true)
    }
    // The web host's folder "dialog" keeps every one of them inside <userData>/exports.
    const webFiles = createChartFiles({ dialog: createFolderDialogs(userData) })
    for (const name of ['../../../escaped', '..', '/tmp/absolute']) {
      const saved = await webFiles.save({ format: 'svg', name, content: svg })
      expect(saved?.fileName).not.toMatch(/[/\\]/)
    }
    expect(await fs.readdir(userData)).toEqual(['exports'])
    expect((await fs.readdir(dialogFolders(userData).exports)).length).toBe(3)
  })

  it('checks the content before opening the dialog: a fake PNG asks nothing and writes nothing', async () => {
    const folder = await temporaryFolder()
    const dialog = scriptedDialog([path.join(folder, 'chart.png')])
    const files = createChartFiles({ dialog })
    // Past the contract (another caller in main): the service checks again.
    const fake = { format: 'png', name: 'Chart', content: Buffer.from('<html>'.repeat(20)).toString('base64') } as ChartFile
    await expect(files.save(fake)).rejects.toMatchObject({ code: 'bad_input' })
    const script = { format: 'svg', name: 'Chart', content: '<svg xmlns="http://www.w3.org/2000/svg"><script/></svg>' } as ChartFile
    await expect(files.save(script)).rejects.toMatchObject({ code: 'bad_input' })
    expect(dialog.offered).toEqual([])
    expect(await fs.readdir(folder)).toEqual([])
  })

  it('never replaces a file the dialog did not show; replaces the one the user picked in it', async () => {
    const folder = await temporaryFolder()
    await fs.writeFile(path.join(folder, 'mine.png'), 'kept')
    await fs.writeFile(path.join(folder, 'picked.png'), 'old picture')
    // The user typed "mine": the file would be mine.png, which the dialog never showed them.
    const dialog = scriptedDialog([path.join(folder, 'mine'), path.join(folder, 'picked.png')])
    const files = createChartFiles({ dialog })
    const input: ChartFile = { format: 'png', name: 'Chart', content: png.toString('base64') }
    const refused = files.save(input)
    await expect(refused).rejects.toMatchObject({ code: 'conflict' })
    await expect(refused).rejects.not.toThrow(folder)
    expect(await fs.readFile(path.join(folder, 'mine.png'), 'utf8')).toBe('kept')
    // The native dialog asked "replace?" about picked.png itself: the user said yes.
    expect(await files.save(input)).toEqual({ fileName: 'picked.png' })
    expect(await fs.readFile(path.join(folder, 'picked.png'))).toEqual(png)
  })

  it('writes nothing when the dialog is cancelled', async () => {
    const folder = await temporaryFolder()
    const files = createChartFiles({ dialog: scriptedDialog([null]) })
    expect(await files.save({ format: 'svg', name: 'Chart', content: svg })).toBeNull()
    expect(await fs.readdir(folder)).toEqual([])
  })

  it('writes a temporary file beside the target and renames it; a failed rename leaves the old file whole, no temporary file, and no path in the error', async () => {
    const folder = await temporaryFolder()
    const target = path.join(folder, 'chart.svg')
    await fs.writeFile(target, 'the old chart')
    const steps: string[] = []
    let failRename = false
    const watched: AtomicFs & Pick<typeof fs, 'stat'> = {
      stat: fs.stat,
      mkdir: fs.mkdir,
      rm: fs.rm,
      open: (async (file: string, flags: string, mode?: number) => {
        if (flags === 'w') steps.push(`write ${path.relative(folder, file)}`)
        return fs.open(file, flags, mode)
      }) as typeof fs.open,
      rename: async (from, to) => {
        steps.push(`rename ${path.relative(folder, String(from))} -> ${path.relative(folder, String(to))}`)
        if (failRename) throw Object.assign(new Error(`EACCES: permission denied, rename '${String(from)}'`), { code: 'EACCES' })
        return fs.rename(from, to)
      },
    }
    const files = createChartFiles({ dialog: scriptedDialog([target, target]), fs: watched })
    expect(await files.save({ format: 'svg', name: 'Chart', content: svg })).toEqual({ fileName: 'chart.svg' })
    const temporary = steps[0]?.replace('write ', '') ?? ''
    expect(steps).toEqual([`write ${temporary}`, `rename ${temporary} -> chart.svg`])
    // Beside the target (same folder, so the rename is atomic), hidden, and not the target itself.
    expect(temporary).not.toContain(path.sep)
    expect(temporary).toMatch(/^\.chart\.svg\..+\.tmp$/)
    expect(await fs.readFile(target, 'utf8')).toBe(svg)

    failRename = true
    await fs.writeFile(target, 'the old chart')
    const failed = await files.save({ format: 'svg', name: 'Chart', content: svg }).catch((error: unknown) => error)
    expect(failed).toMatchObject({ code: 'storage', details: { errorCode: 'EACCES' } })
    expect((failed as Error).message).toContain('chart.svg')
    expect(JSON.stringify(failed)).not.toContain(folder)
    expect((failed as Error).message).not.toContain(folder)
    expect(await fs.readFile(target, 'utf8')).toBe('the old chart')
    expect(await fs.readdir(folder)).toEqual(['chart.svg'])
  })

  it('writes the table with the app’s csv writer: numbers stay numbers, a label cannot become a formula', async () => {
    const folder = await temporaryFolder()
    const files = createChartFiles({ dialog: scriptedDialog([path.join(folder, 'numbers.csv')]) })
    await files.save({
      format: 'csv',
      name: 'Chart',
      table: {
        columns: ['Date', '=HYPERLINK("https://evil.example")', 'Margin'],
        rows: [
          ['2026-11-01', 10, -2.5],
          ['2026-11-02', null, 3],
          ['Total', 10, 0.5],
        ],
      },
    })
    expect(await fs.readFile(path.join(folder, 'numbers.csv'), 'utf8')).toBe(
      'Date,"\'=HYPERLINK(""https://evil.example"")",Margin\r\n2026-11-01,10,-2.5\r\n2026-11-02,,3\r\nTotal,10,0.5\r\n',
    )
  })
})
