import { readFileSync } from 'node:fs'
import path from 'node:path'
import type { Page } from '@playwright/test'
import { createTargets, ensure } from './targets'
import { bigResult, median, openReports, reopenReports, root, startBrowserHost } from './browser-host'

/**
 * Issue 10, in headless Chromium through preview:web: a chart of 50 lines × 10,000 points.
 *  - paint: the reports:run answer in hand (fetch resolved) to the chart painted (ECharts'
 *    `finished`, the chart's data-painted, then one frame), beside a bare ECharts page painting
 *    the same 50 × 10,000 points from the same JSON, timed the same way, in the same browser;
 *  - toggle: a click on a legend entry to the chart repainted without that series;
 *  - request: a click on Run to the reports:run request leaving the page (the bridge's fetch).
 * The result is answered with page.route, RAW (reduced: false, 10,000 points a series): main
 * normally reduces series to a point budget first, the page must still cope with full ones.
 */

const TARGET_PAINT_MS = 250
const TARGET_TOGGLE_MS = 50
const TARGET_REQUEST_MS = 16
const LINES = 50
const POINTS = 10_000
const ROUNDS = 5

/*
 * Timed code runs as plain source text in the page (tsx would add helpers page functions lack).
 * The fetch wrapper notes when a reports:run request leaves and when its answer is in hand.
 */
const WATCH_RUN = `(() => {
  const marks = (window.__benchRun = { sent: 0, inHand: 0 })
  if (!window.__benchFetch) {
    window.__benchFetch = window.fetch
    window.fetch = async (input, init) => {
      const url = String(input)
      if (!url.includes('reports%3Arun')) return window.__benchFetch(input, init)
      window.__benchRun.sent = performance.now()
      const response = await window.__benchFetch(input, init)
      window.__benchRun.inHand = performance.now()
      return response
    }
  }
  return marks.sent
})()`

/** Resolves when the chart's data-painted went false then true (after `started`), one frame later. */
const PAINTED_AFTER = (action: string, key: string): string => `new Promise((resolve, reject) => {
  const seen = { reset: false }
  const done = (at) => requestAnimationFrame(() => setTimeout(() => resolve({ painted: performance.now(), ...window.__benchRun, clicked: at })))
  const observer = new MutationObserver((records) => {
    const chart = document.querySelector('[data-test="report-chart"]')
    if (!chart) return
    // Both changes (true → false → true) can land in one batch of records: old values tell.
    if (records.some((record) => record.type === 'attributes' && record.oldValue === 'true')) seen.reset = true
    if (chart.getAttribute('data-painted') !== 'true') seen.reset = true
    else if (seen.reset) { observer.disconnect(); done(clicked) }
  })
  observer.observe(document.body, { subtree: true, childList: true, attributes: true, attributeOldValue: true, attributeFilter: ['data-painted'] })
  const timeout = setTimeout(() => { observer.disconnect(); reject(new Error('the chart was not painted within 30 s')) }, 30000)
  const clicked = performance.now()
  ${action === 'run' ? `document.querySelector('[data-test="run"]').click()` : `document.querySelector('[data-test="legend-item"][data-key=${JSON.stringify(key)}] .toggle').click()`}
}).then((value) => value)`

interface Marks {
  painted: number
  sent: number
  inHand: number
  clicked: number
}

const BASELINE_PAGE = `<!doctype html><html><head><meta charset="utf-8"><script src="/echarts.min.js"></script></head>
<body style="margin:0"><div id="chart" style="width:1000px;height:380px"></div></body></html>`

/** The bare ECharts page: the same JSON in hand, parsed, one line series per line, painted. */
const BASELINE_PAINT = `new Promise(async (resolve) => {
  const response = await fetch('/result.json')
  const inHand = performance.now()
  const result = await response.json()
  const chart = echarts.getInstanceByDom(document.getElementById('chart')) ?? echarts.init(document.getElementById('chart'))
  chart.clear()
  chart.on('finished', function once() { chart.off('finished', once); requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - inHand))) })
  chart.setOption({
    xAxis: { type: 'category', data: result.categories },
    yAxis: { type: 'value' },
    series: result.series.map((series) => ({ type: 'line', name: series.label, data: series.values, showSymbol: false })),
  }, true)
})`

const run = (page: Page, action: string, key = ''): Promise<Marks> => page.evaluate(PAINTED_AFTER(action, key)) as Promise<Marks>

export default async function bench(): Promise<void> {
  const targets = createTargets()
  const host = await startBrowserHost('reports')
  try {
    const result = bigResult(LINES, POINTS, 'requests')
    const body = JSON.stringify({ ok: true, value: result })
    const page = await host.browser.newPage({ viewport: { width: 1320, height: 860 } })
    await page.route('**/__host/invoke/reports%3Arun', (route) => route.fulfill({ status: 200, contentType: 'application/json', body }))
    await openReports(page, host)

    const paints: number[] = []
    const requests: number[] = []
    for (let round = 0; round < ROUNDS; round++) {
      // Each run on a freshly loaded page: the first chart of a session, no earlier one to replace.
      if (round > 0) await reopenReports(page)
      await page.evaluate(WATCH_RUN)
      const marks = await run(page, 'run')
      ensure(marks.sent > 0 && marks.inHand > 0, 'no reports:run request was seen')
      requests.push(marks.sent - marks.clicked)
      paints.push(marks.painted - marks.inHand)
    }
    const categories = await page.getByTestId('report-chart').getAttribute('data-categories')
    const shown = await page.getByTestId('report-chart').getAttribute('data-series')
    ensure(categories === String(POINTS) && shown === String(LINES), `the chart shows ${shown} series of ${categories} points, not ${LINES} of ${POINTS}`)

    const toggles: number[] = []
    const keys = (result.series as Array<{ key: string }>).map((series) => series.key)
    for (let round = 0; round < ROUNDS * 2; round++) {
      const key = keys[Math.floor(round / 2) % keys.length] ?? ''
      const marks = await run(page, 'toggle', key)
      toggles.push(marks.painted - marks.clicked)
      const expected = String(round % 2 === 0 ? LINES - 1 : LINES)
      ensure((await page.getByTestId('report-chart').getAttribute('data-series')) === expected, `toggling ${key} did not leave ${expected} series shown`)
    }

    // Baseline: bare ECharts, same browser, same JSON, same clock (answer in hand to painted + a frame).
    const echartsScript = readFileSync(path.join(root, 'node_modules', 'echarts', 'dist', 'echarts.min.js'), 'utf8')
    const baseline = await host.browser.newPage({ viewport: { width: 1320, height: 860 } })
    await baseline.route('http://bench.invalid/**', (route) => {
      const pathname = new URL(route.request().url()).pathname
      if (pathname === '/echarts.min.js') return route.fulfill({ contentType: 'text/javascript', body: echartsScript })
      if (pathname === '/result.json') return route.fulfill({ contentType: 'application/json', body: JSON.stringify(result) })
      return route.fulfill({ contentType: 'text/html', body: BASELINE_PAGE })
    })
    await baseline.goto('http://bench.invalid/')
    const bare: number[] = []
    for (let round = 0; round < ROUNDS; round++) bare.push((await baseline.evaluate(BASELINE_PAINT)) as number)

    process.stdout.write(
      `${LINES} lines × ${POINTS.toLocaleString('en-US')} points, RAW (not reduced by main), Chromium, preview:web; medians of ${ROUNDS} runs, ${toggles.length} toggles\n`,
    )
    targets.check('answer in hand to chart painted (raw 10,000 points)', median(paints), 'ms', TARGET_PAINT_MS, { atMost: true })
    targets.note('  bare ECharts page, same points, same clock', median(bare), 'ms')
    targets.note('  ratio to bare ECharts', median(paints) / median(bare), '×')
    targets.check('legend toggle to chart repainted', median(toggles), 'ms', TARGET_TOGGLE_MS, { atMost: true })
    targets.check('Run click to reports:run request sent', median(requests), 'ms', TARGET_REQUEST_MS, { atMost: true })
  } finally {
    await host.close()
  }
  targets.verdict()
}
