import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createInterface } from 'node:readline'
import { request } from 'undici'
import type { SandboxInfo } from '../../main/sandbox/index'
import { createTargets, ensure } from './targets'

/**
 * Sandbox figures against their targets: info latency, a 90-day daily time series with 50
 * lines, and a 1,000,000-row csv export streamed from a large sandbox (checked to be a 200 with
 * exactly 1,000,000 data rows and the `Others` row, so a fast error page cannot pass). The
 * sandbox runs in a child process (one node process, tsx loaded with --import) so its peak
 * memory (VmHWM) is its own. Fails when any target is missed.
 */

const TARGETS = { infoMs: 20, timeSeriesMs: 150, exportSeconds: 10, exportPeakMb: 300 }
/** The sandbox's cap on csv rows (EXPORT_LIMITS.textRows); the large sandbox has more page URLs than that. */
const EXPORT_ROWS = 1_000_000

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2
}

function peakMegabytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const match = /VmHWM:\s+(\d+) kB/.exec(status)
  return match ? Number(match[1]) / 1024 : Number.NaN
}

async function startChild(): Promise<{ child: ChildProcess; info: SandboxInfo; startSeconds: number }> {
  const started = performance.now()
  const child = spawn(process.execPath, ['--import', 'tsx', 'main/sandbox/cli.ts', '--port', '0', '--scale', 'large'], {
    cwd: process.cwd(),
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const stdout = child.stdout
  if (!stdout) throw new Error('no stdout from the sandbox')
  const first = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: stdout })
    lines.once('line', resolve)
    child.once('exit', (code) => reject(new Error(`sandbox exited with ${String(code)}`)))
  })
  return { child, info: JSON.parse(first) as SandboxInfo, startSeconds: (performance.now() - started) / 1000 }
}

async function post(url: string, body: unknown): Promise<unknown> {
  const response = await request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
  })
  const parsed = (await response.body.json()) as { status?: string; reason?: string }
  if (parsed.status !== 'success') throw new Error(`${url}: ${parsed.status ?? '?'} ${parsed.reason ?? ''}`)
  return parsed
}

async function timed(count: number, action: () => Promise<unknown>): Promise<number[]> {
  const times: number[] = []
  for (let run = 0; run < count; run++) {
    const started = performance.now()
    await action()
    times.push(performance.now() - started)
  }
  return times
}

export default async function bench(): Promise<void> {
  const targets = createTargets()
  const { child, info, startSeconds } = await startChild()
  try {
    process.stdout.write(`large sandbox started in ${startSeconds.toFixed(2)} s (pid ${String(child.pid)})\n`)
    const common = { token: info.permanent_token, project_name: 'demo', slicer_name: 'supply' }
    const report = (operation: string): string => `${info.report_url}/API/v2/${operation}`

    await timed(5, () => post(report('info'), common))
    targets.check('info latency (median of 50)', median(await timed(50, () => post(report('info'), common))), 'ms', TARGETS.infoMs)

    const timeSeries = {
      ...common,
      granularity: 'day',
      split_by: ['ad_unit'],
      chart_lines: [...Array.from({ length: 49 }, (_, index) => String(index + 1)), '__total__'],
      data_field: 'revenue',
      start_date: '-90d',
      end_date: 'yesterday',
    }
    await timed(3, () => post(report('time_series'), timeSeries))
    targets.check(
      'time_series 90 days daily, 50 lines (median of 15)',
      median(await timed(15, () => post(report('time_series'), timeSeries))),
      'ms',
      TARGETS.timeSeriesMs,
    )

    const started = performance.now()
    const response = await request(report('export'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        ...common,
        export_format: 'csv',
        split_by: ['page_url'],
        data_fields: ['impressions', 'revenue'],
        start_date: '-400d',
        end_date: 'yesterday',
      }),
    })
    let lines = 0
    let bytes = 0
    // The text after the last line break seen so far, and the last complete line: the `Others` row.
    let tail = ''
    let lastLine = ''
    for await (const chunk of response.body) {
      const buffer = chunk as Buffer
      bytes += buffer.length
      let lineStart = 0
      for (let index = buffer.indexOf(10); index >= 0; index = buffer.indexOf(10, index + 1)) {
        lines++
        lastLine = tail + buffer.toString('latin1', lineStart, index)
        tail = ''
        lineStart = index + 1
      }
      // Only the end of a long unfinished line is ever needed; keep it short.
      tail = (tail + buffer.toString('latin1', lineStart)).slice(-200)
    }
    const seconds = (performance.now() - started) / 1000
    const contentType = String(response.headers['content-type'] ?? '')
    // Header, the data rows, then one `Others` row summing the rows past the cap.
    const dataRows = lines - 2
    process.stdout.write(
      `export: HTTP ${response.statusCode} ${contentType}, ${dataRows} data rows + ${JSON.stringify(lastLine.split(',')[0])}, ${(bytes / 1e6).toFixed(1)} MB\n`,
    )
    ensure(response.statusCode === 200, `the export answered HTTP ${response.statusCode}`)
    ensure(contentType.startsWith('text/csv'), `the export came as ${contentType}, not csv`)
    ensure(tail === '', 'the export does not end with a line break')
    ensure(lastLine.startsWith('Others,'), `the export's last row is not Others: ${lastLine.slice(0, 80)}`)
    ensure(dataRows === EXPORT_ROWS, `the export has ${dataRows} data rows, not ${EXPORT_ROWS}`)
    targets.check('csv export, 1,000,000 rows, streamed', seconds, 's', TARGETS.exportSeconds)
    targets.check('sandbox peak memory (VmHWM, whole run)', peakMegabytes(child.pid ?? 0), 'MB', TARGETS.exportPeakMb)
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGTERM')
    await exited
  }
  targets.verdict()
}
