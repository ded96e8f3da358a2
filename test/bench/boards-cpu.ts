import { readdirSync, readFileSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import type { Browser, CDPSession, Page } from '@playwright/test'
import { stretchCosts, TRACE_CATEGORIES } from './trace'

/**
 * CPU, not wall time, of a board opening (boards.bench.ts): on a machine shared with other work
 * the wall figure grows with the load, the CPU a process spends on the open hardly does.
 *  - the page: its main thread's CPU (Chromium's ThreadTime) from the click to the paint;
 *  - main: the CPU of preview:web's processes (user + system, from /proc) over the same stretch;
 *  - BENCH_TRACE=1: one open traced, its page CPU split into script, style, layout, paint, gc
 *    (BENCH_TRACE_FILE=path keeps the trace, for the browser's performance panel);
 *  - BENCH_PROFILE=1: one open profiled, the page's top functions by self time
 *    (BENCH_PROFILE_FILE=path keeps the .cpuprofile).
 */

/** CPU ms of every process whose command line holds `marker` (preview:web is started with its own user-data folder); 0 where /proc is missing. */
export function processCpu(marker: string): number {
  let ticks = 0
  let names: string[] = []
  try {
    names = readdirSync('/proc').filter((name) => /^\d+$/.test(name))
  } catch {
    return 0
  }
  for (const pid of names) {
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker)) continue
      // Fields after the command's name (which may hold spaces): utime and stime are the 14th and 15th.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      ticks += Number(fields[11]) + Number(fields[12])
    } catch {
      // The process ended between the listing and the read.
    }
  }
  // USER_HZ is 100 on every Linux the bench runs on.
  return ticks * 10
}

export interface CpuMeter {
  /** Runs `work` and answers the page's main-thread CPU and main's CPU it took, ms. */
  measure<T>(work: () => Promise<T>): Promise<{ value: T; page: number; main: number }>
}

export async function createCpuMeter(page: Page, mainMarker: string): Promise<CpuMeter> {
  const session = await page.context().newCDPSession(page)
  await session.send('Performance.enable')
  const threadTime = async (): Promise<number> =>
    ((await session.send('Performance.getMetrics')).metrics.find((metric) => metric.name === 'ThreadTime')?.value ?? Number.NaN) * 1000
  return {
    async measure(work) {
      const pageBefore = await threadTime()
      const mainBefore = processCpu(mainMarker)
      const value = await work()
      return { value, page: (await threadTime()) - pageBefore, main: processCpu(mainMarker) - mainBefore }
    },
  }
}

/** One open traced (BENCH_TRACE): the page's CPU between the marks OPEN_BOARD makes, by part. */
export async function tracedOpen(browser: Browser, page: Page, open: () => Promise<unknown>): Promise<string> {
  await browser.startTracing(page, { categories: TRACE_CATEGORIES })
  await open()
  const trace = (await browser.stopTracing()).toString()
  if (process.env.BENCH_TRACE_FILE) await writeFile(process.env.BENCH_TRACE_FILE, trace)
  const [cost] = stretchCosts(trace, 'bench:open', 'bench:open:painted')
  if (!cost) return 'the trace holds no open'
  const parts = Object.entries(cost.parts)
    .map(([part, ms]) => `${part} ${ms.toFixed(1)}`)
    .join(', ')
  return `traced page CPU of one open: ${cost.cpu.toFixed(1)} ms (${parts})`
}

/** One open profiled (BENCH_PROFILE): the page's top functions by self time. */
export async function profiledOpen(page: Page, open: () => Promise<unknown>): Promise<string> {
  const session: CDPSession = await page.context().newCDPSession(page)
  await session.send('Profiler.enable')
  await session.send('Profiler.setSamplingInterval', { interval: 100 })
  await session.send('Profiler.start')
  await open()
  const { profile } = await session.send('Profiler.stop')
  if (process.env.BENCH_PROFILE_FILE) await writeFile(process.env.BENCH_PROFILE_FILE, JSON.stringify(profile))
  const counts = new Map<number, number>()
  for (const sample of profile.samples ?? []) counts.set(sample, (counts.get(sample) ?? 0) + 1)
  const self = new Map<string, number>()
  for (const node of profile.nodes) {
    const where = `${node.callFrame.functionName || '(anonymous)'} ${node.callFrame.url.split('/').pop()}:${node.callFrame.lineNumber}`
    self.set(where, (self.get(where) ?? 0) + (counts.get(node.id) ?? 0) * 0.1)
  }
  const byFile = new Map<string, number>()
  for (const node of profile.nodes) {
    const file = node.callFrame.url.split('/').pop() || node.callFrame.functionName || '(native)'
    byFile.set(file, (byFile.get(file) ?? 0) + (counts.get(node.id) ?? 0) * 0.1)
  }
  const lines = (entries: Map<string, number>, count: number) =>
    [...entries.entries()]
      .sort((left, right) => right[1] - left[1])
      .slice(0, count)
      .map(([where, ms]) => `  ${ms.toFixed(1).padStart(7)} ms  ${where}`)
      .join('\n')
  return `CPU profile of one open, self time by script:\n${lines(byFile, 12)}\ntop functions by self time:\n${lines(self, 30)}`
}
