import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createInterface } from 'node:readline'
import { request } from 'undici'
import type { SandboxInfo } from '../../main/sandbox/index'

/**
 * Sandbox figures against their targets: info latency, a 90-day daily time series with 50
 * lines, and a 1,000,000-row csv export streamed from a large sandbox. The sandbox runs in a
 * child process (one node process, tsx loaded with --import) so its peak memory (VmHWM) is its own.
 */

const TARGETS = { infoMs: 20, timeSeriesMs: 150, exportSeconds: 10, exportPeakMb: 300 }

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2
}

function line(label: string, value: number, unit: string, target: number): void {
  const ratio = value / target
  process.stdout.write(`${label.padEnd(44)} ${value.toFixed(unit === 's' ? 2 : 1).padStart(9)} ${unit.padEnd(3)} target < ${String(target).padEnd(4)} ${unit.padEnd(3)} ratio ${ratio.toFixed(2)} ${ratio < 1 ? 'ok' : 'OVER'}\n`)
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
  const response = await request(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(body) })
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
  const { child, info, startSeconds } = await startChild()
  try {
    process.stdout.write(`large sandbox started in ${startSeconds.toFixed(2)} s (pid ${String(child.pid)})\n`)
    const common = { token: info.permanent_token, project_name: 'demo', slicer_name: 'supply' }
    const report = (operation: string): string => `${info.report_url}/API/v2/${operation}`

    await timed(5, () => post(report('info'), common))
    line('info latency (median of 50)', median(await timed(50, () => post(report('info'), common))), 'ms', TARGETS.infoMs)

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
    line('time_series 90 days daily, 50 lines (median of 15)', median(await timed(15, () => post(report('time_series'), timeSeries))), 'ms', TARGETS.timeSeriesMs)

    const started = performance.now()
    const response = await request(report('export'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...common, export_format: 'csv', split_by: ['page_url'], data_fields: ['impressions', 'revenue'], start_date: '-400d', end_date: 'yesterday' }),
    })
    let lines = 0
    let bytes = 0
    for await (const chunk of response.body) {
      const buffer = chunk as Buffer
      bytes += buffer.length
      for (let index = buffer.indexOf(10); index >= 0; index = buffer.indexOf(10, index + 1)) lines++
    }
    const seconds = (performance.now() - started) / 1000
    process.stdout.write(`export: HTTP ${response.statusCode}, ${lines - 2} data rows + Others, ${(bytes / 1e6).toFixed(1)} MB\n`)
    line('csv export, 1,000,000 rows, streamed', seconds, 's', TARGETS.exportSeconds)
    line('sandbox peak memory (VmHWM, whole run)', peakMegabytes(child.pid ?? 0), 'MB', TARGETS.exportPeakMb)
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGTERM')
    await exited
  }
}
