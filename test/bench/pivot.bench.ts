import { createWriteStream } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { DuckDBInstance } from '@duckdb/node-api'
import type { PivotLayout } from '../../common/pivot/types'
import { createAnalysis } from '../../main/services/analysis/analysis'
import { sqlString } from '../../main/services/analysis/engine'
import { createOpenedFiles } from '../../main/services/analysis/opened-files'
import { createTargets, ensure } from './targets'

/**
 * Issue 24, main's side: a 1,000,000-row export-shaped CSV (date, publisher, country, device,
 * impressions, clicks, revenue) opened for analysis and its first pivot computed (publishers down,
 * countries across, revenue summed, sorted by the total, top 50 with Others) ≤ 1.5 s; a re-pivot
 * (devices across instead) ≤ 200 ms; main's memory growth (rss) ≤ 500 MB. The painted part of the
 * issue's 1.5 s is the page's (the grid draws one window); this measures everything up to the
 * window crossing the bridge, the first window included. Baseline in the same run: the same
 * aggregation by a plain DuckDB query straight on the file in a fresh engine (the engine's own).
 * Also printed: the longest stall of a 10 ms timer on main's event loop while the file loads.
 */

const ROWS = 1_000_000
const OPEN_AND_PIVOT_MS = 1_500
const REPIVOT_MS = 200
const RSS_GROWTH_MB = 500

async function writeExport(filePath: string): Promise<void> {
  const out = createWriteStream(filePath)
  const write = (text: string): Promise<void> => new Promise((resolve) => (out.write(text) ? resolve() : out.once('drain', resolve)))
  await write('date,publisher,country,device,impressions,clicks,revenue\n')
  let batch = ''
  for (let row = 0; row < ROWS; row++) {
    const day = String(1 + (row % 28)).padStart(2, '0')
    batch += `2026-10-${day},Publisher ${(row * 7919) % 800},${['US', 'GB', 'DE', 'FR', 'JP', 'BR', 'IN', 'CA'][row % 8]}${row % 37},${['desktop', 'mobile', 'tablet', 'ctv'][row % 4]},${1000 + (row % 5000)},${row % 41},${((row % 9973) / 100).toFixed(2)}\n`
    if (batch.length > 1 << 20) {
      await write(batch)
      batch = ''
    }
  }
  await write(batch)
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())))
}

const layout = (columns: string[]): PivotLayout => ({
  rows: ['publisher'],
  columns,
  values: [{ field: 'revenue', aggregate: 'sum' }],
  sort: { by: 'value', value: 0, column: null, direction: 'desc' },
  top: 50,
  subtotals: false,
  showChange: false,
})

export default async function bench(): Promise<void> {
  const targets = createTargets()
  const folder = await mkdtemp(path.join(tmpdir(), 'adops-pivot-bench-'))
  const analysis = createAnalysis({ openedFiles: createOpenedFiles() })
  try {
    const filePath = path.join(folder, 'export.csv')
    await writeExport(filePath)

    // Baseline: the engine's own query on the file, no app around it.
    let started = performance.now()
    const instance = await DuckDBInstance.create(':memory:')
    const connection = await instance.connect()
    const baseline = await connection.runAndReadAll(
      `SELECT publisher, country, sum(revenue) FROM read_csv(${sqlString(filePath)}, header=true) GROUP BY GROUPING SETS ((publisher, country), (publisher), (country), ())`,
    )
    const baselineMs = performance.now() - started
    ensure(baseline.currentRowCount > 800, `the baseline has ${baseline.currentRowCount} rows`)
    connection.closeSync()
    instance.closeSync()

    globalThis.gc?.()
    const rssBefore = process.memoryUsage().rss
    let longestStall = 0
    let last = performance.now()
    const timer = setInterval(() => {
      const now = performance.now()
      longestStall = Math.max(longestStall, now - last - 10)
      last = now
    }, 10)
    started = performance.now()
    const opened = await analysis.open(filePath)
    const openedMs = performance.now() - started
    clearInterval(timer)
    ensure(opened.rowCount === ROWS, `the file opened with ${opened.rowCount} rows`)
    const first = await analysis.pivot(opened.id, layout(['country']), [])
    const firstWindow = await analysis.window(first.pivotId, { rowStart: 0, rowCount: 60, columnStart: 0, columnCount: 40 })
    const firstMs = performance.now() - started
    ensure(first.rowCount === 52 && firstWindow.rows.at(-2)?.kind === 'others', `the first pivot has ${first.rowCount} rows`)

    started = performance.now()
    const again = await analysis.pivot(opened.id, layout(['device']), [])
    const againWindow = await analysis.window(again.pivotId, { rowStart: 0, rowCount: 60, columnStart: 0, columnCount: 40 })
    const repivotMs = performance.now() - started
    ensure(again.columnCount === 5 && againWindow.cells.length === 52, `the re-pivot has ${again.columnCount} columns`)
    const growthMb = (process.memoryUsage().rss - rssBefore) / (1024 * 1024)

    targets.note('baseline: plain DuckDB query on the file', baselineMs, 'ms')
    targets.note('  of which: file opened (loaded, locked)', openedMs, 'ms')
    targets.note('  event loop: longest stall while loading', longestStall, 'ms')
    targets.check('1,000,000-row csv opened + first pivot + window', firstMs, 'ms', OPEN_AND_PIVOT_MS, { atMost: true })
    targets.check('re-pivot (devices across) + window', repivotMs, 'ms', REPIVOT_MS, { atMost: true })
    targets.check("main's memory growth (rss)", growthMb, 'MB', RSS_GROWTH_MB, { atMost: true })
    targets.verdict()
  } finally {
    analysis.dispose()
    await rm(folder, { recursive: true, force: true })
  }
}
