import { readFileSync } from 'node:fs'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import type { Page } from '@playwright/test'
import type { TimeSeriesView } from '@contract'
import { reduceView } from '../../main/services/reports/reducer'
import { createTargets, ensure } from './targets'
import { bigResult, median, openReports, reopenReports, root, startBrowserHost } from './browser-host'

/**
 * Issue 10, in headless Chromium through preview:web: a chart of 50 lines × 10,000 points.
 *  - paint: the reports:run answer in hand (fetch resolved) to the chart painted (ECharts'
 *    `finished`, the chart's data-paints moving on, then one frame), beside a bare ECharts page painting
 *    the same 50 × 10,000 RAW points from the same data, timed the same way, in the same browser
 *    (and, for scale, the bare page painting the reduced points too);
 *  - toggle: a click on a legend entry to the chart repainted without that series;
 *  - request: a click on Run to the reports:run request leaving the page (the bridge's fetch).
 * The answer is what main sends for that request: page.route takes the point budget the page
 * asked for (one point per pixel column of the plot) and reduces the 10,000-point result with
 * main's own reduceView (min/max per bucket), as runner.ts does before answering. That work is
 * main's, not the page's, so it is outside the paint figure; its time is printed beside it.
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

/**
 * Resolves one frame after the chart's paint count (data-paints, one more at each ECharts
 * `finished`) has moved past its value at the click, with data-painted true: a toggle paints in
 * the click's own task, so data-painted alone may never be seen false.
 */
const PAINTED_AFTER = (action: string, key: string): string => `new Promise((resolve, reject) => {
  const paints = () => Number(document.querySelector('[data-test="report-chart"]')?.getAttribute('data-paints') ?? -1)
  const before = paints()
  const done = (at) => requestAnimationFrame(() => setTimeout(() => resolve({ painted: performance.now(), ...window.__benchRun, clicked: at })))
  const check = () => {
    const chart = document.querySelector('[data-test="report-chart"]')
    // With no chart at the click (the first run of a page) \`before\` is -1: its first paint counts.
    return chart !== null && chart.getAttribute('data-painted') === 'true' && paints() > before
  }
  const observer = new MutationObserver(() => {
    if (check()) { observer.disconnect(); clearTimeout(timeout); done(clicked) }
  })
  observer.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-paints', 'data-painted'] })
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
const BASELINE_PAINT = (file: string, animation: boolean): string => `new Promise(async (resolve) => {
  const response = await fetch('/${file}')
  const inHand = performance.now()
  const result = await response.json()
  const chart = echarts.getInstanceByDom(document.getElementById('chart')) ?? echarts.init(document.getElementById('chart'))
  chart.clear()
  chart.on('finished', function once() { chart.off('finished', once); requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - inHand))) })
  chart.setOption({
    animation: ${animation},
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
    const result = bigResult(LINES, POINTS, 'requests') as unknown as TimeSeriesView
    const budgets = new Set<number>()
    const reductions: number[] = []
    let sent: TimeSeriesView | null = null
    const page = await host.browser.newPage({ viewport: { width: 1320, height: 860 } })
    await page.route('**/__host/invoke/reports%3Arun', (route) => {
      const budget = (route.request().postDataJSON() as { pointBudget?: number }).pointBudget
      ensure(typeof budget === 'number', 'the page did not send a point budget with reports:run')
      budgets.add(budget)
      const started = performance.now()
      sent = reduceView(result, budget)
      reductions.push(performance.now() - started)
      return route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ ok: true, value: sent }) })
    })
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
    const answered = sent as TimeSeriesView | null
    ensure(answered !== null && answered.reduced, 'the answer was not reduced: the budget covers all points')
    const reducedPoints = answered.categories.length
    const categories = await page.getByTestId('report-chart').getAttribute('data-categories')
    const shown = await page.getByTestId('report-chart').getAttribute('data-series')
    ensure(
      categories === String(reducedPoints) && shown === String(LINES),
      `the chart shows ${shown} series of ${categories} points, not ${LINES} of ${reducedPoints}`,
    )

    // The legend follows the chart's first paint (once the page is idle): a user clicks it once it is there.
    await page.getByTestId('legend-item').first().waitFor()
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
      if (pathname === '/reduced.json') return route.fulfill({ contentType: 'application/json', body: JSON.stringify(answered) })
      return route.fulfill({ contentType: 'text/html', body: BASELINE_PAGE })
    })
    await baseline.goto('http://bench.invalid/')
    const bare: number[] = []
    const bareReduced: number[] = []
    for (let round = 0; round < ROUNDS; round++) {
      // Raw: ECharts' defaults (over 2,000 points a series it does not animate anyway); reduced: no animation, as the app.
      bare.push((await baseline.evaluate(BASELINE_PAINT('result.json', true))) as number)
      bareReduced.push((await baseline.evaluate(BASELINE_PAINT('reduced.json', false))) as number)
    }

    const pointsText = POINTS.toLocaleString('en-US')
    process.stdout.write(
      `${LINES} lines × ${pointsText} points; the answer in hand is main's, reduced to ${reducedPoints} points a series ` +
        `(point budget ${[...budgets].join(', ')} = one per pixel column of the plot, a min/max pair per two); Chromium, preview:web; medians of ${ROUNDS} runs, ${toggles.length} toggles\n`,
    )
    targets.check(`answer in hand (reduced by main) to chart painted`, median(paints), 'ms', TARGET_PAINT_MS, { atMost: true })
    targets.note(`  bare ECharts page, same ${pointsText} raw points`, median(bare), 'ms')
    targets.note('  ratio to bare ECharts on raw points', median(paints) / median(bare), '×')
    targets.note(`  bare ECharts page, same ${reducedPoints} reduced points, no animation`, median(bareReduced), 'ms')
    targets.note(`  main: reducing ${LINES} × ${pointsText} (not in the paint)`, median(reductions), 'ms')
    targets.check('legend toggle to chart repainted', median(toggles), 'ms', TARGET_TOGGLE_MS, { atMost: true })
    targets.check('Run click to reports:run request sent', median(requests), 'ms', TARGET_REQUEST_MS, { atMost: true })
  } finally {
    await host.close()
  }
  targets.verdict()
}
