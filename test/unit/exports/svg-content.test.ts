import { describe, expect, it } from 'vitest'
import { chartFileSchema, svgProblem, type ChartType } from '@contract'
import { createChartFiles } from '../../../main/services/exports/chart-files'
import { init } from '../../../renderer/src/components/reports/echarts'
import { fileOption } from '../../../renderer/src/domain/reports/chartFile'
import { buildChartOption } from '../../../common/charts/chart-option'
import { seriesColors } from '../../../common/charts/series'
import { info, result } from '../renderer/reports/fixtures'

const SVG = 'xmlns="http://www.w3.org/2000/svg"'
const XLINK = 'xmlns:xlink="http://www.w3.org/1999/xlink"'
/** A chart-like document with `inner` in it. */
const chart = (inner: string, rootAttributes = '') =>
  `<svg width="40" height="20" ${SVG} ${XLINK}${rootAttributes}><rect width="40" height="20" fill="#fff"></rect>${inner}</svg>`

/** The page's own chart, as useChartFiles renders it: ECharts' server-side SVG renderer over the file's option. */
function echartsSvg(type: ChartType, dark: boolean): string {
  const live = buildChartOption({
    result,
    fields: info.dataFields,
    colors: seriesColors(result, dark),
    type,
    hidden: new Set(),
    showMarkers: true,
    dark,
    tooltip: () => '',
  }) as Record<string, unknown>
  const { option, width, height } = fileOption({ ...live, grid: [live.grid] }, { width: 640, height: 400, background: '#101014', textColor: '#eeeeee' })
  const instance = init(null, dark ? 'dark' : undefined, { renderer: 'svg', ssr: true, width, height })
  try {
    instance.setOption(option)
    return instance.renderToSVGString()
  } finally {
    instance.dispose()
  }
}

describe('an SVG chart file runs and loads nothing when opened in a browser', () => {
  it.each([
    ['an onload handler on the root', `<svg ${SVG} onload="alert(1)"><g></g></svg>`],
    ['an onclick handler on a shape', chart('<rect width="1" height="1" onclick="alert(1)"></rect>')],
    ['an event handler spelled in capitals', chart('<g ONLOAD="alert(1)"></g>')],
    ['a plain script', chart('<script>alert(1)</script>')],
    ['a script behind an SVG-namespace prefix', chart('<s:script xmlns:s="http://www.w3.org/2000/svg">alert(1)</s:script>')],
    ['a script in CDATA behind a prefix declared on the root', chart('<s:script><![CDATA[alert(1)]]></s:script>', ' xmlns:s="http://www.w3.org/2000/svg"')],
    ['a capitalised Script', chart('<Script>alert(1)</Script>')],
    [
      'a foreignObject with an iframe',
      chart('<foreignObject width="10" height="10"><iframe xmlns="http://www.w3.org/1999/xhtml" src="https://evil.example"></iframe></foreignObject>'),
    ],
    ['a javascript: link', chart('<a href="javascript:alert(1)"><text>Click</text></a>')],
    ['a javascript: link through xlink:href on use', chart('<use xlink:href="javascript:alert(1)"></use>')],
    ['an xlink prefix bound to another namespace', `<svg ${SVG} xmlns:xlink="http://www.w3.org/2000/svg"><g></g></svg>`],
    ['an external image', chart('<image href="https://tracker.example/pixel.png" width="1" height="1"></image>')],
    ['an external image through xlink', chart('<image xlink:href="//tracker.example/pixel.png" width="1" height="1"></image>')],
    ['an embedded SVG image (which could carry script)', chart('<image href="data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=" width="1" height="1"></image>')],
    ['a use of another file', chart('<use href="https://evil.example/sprite.svg#a"></use>')],
    ['a fill from another file', chart('<rect width="1" height="1" fill="url(https://tracker.example/p.svg#g)"></rect>')],
    ['a style attribute loading a background', chart('<rect width="1" height="1" style="fill:red;background:url(https://tracker.example/p.png)"></rect>')],
    ['a <style> importing a stylesheet', chart('<style>@import "https://evil.example/a.css";</style>')],
    ['a <style> with a url spelled by a CSS escape', chart('<style><![CDATA[ g { background: u\\72l(https://x.example/a) } ]]></style>')],
    ['a url hidden behind a character reference', chart('<rect width="1" height="1" style="background:&#117;rl(https://x.example/a)"></rect>')],
    ['an animation that sets a link', chart('<set attributeName="href" to="javascript:alert(1)"></set>')],
    ['an element in the XHTML namespace', chart('<g xmlns="http://www.w3.org/1999/xhtml"><script>alert(1)</script></g>')],
    ['a DOCTYPE declaring an entity', `<!DOCTYPE svg [<!ENTITY x "<script>alert(1)</script>">]><svg ${SVG}><text>&x;</text></svg>`],
    ['an unknown entity', chart('<text>&x;</text>')],
    ['a stylesheet processing instruction', `<?xml version="1.0"?><?xml-stylesheet href="https://evil.example/a.css"?><svg ${SVG}></svg>`],
    ['a second root after </svg>', `${chart('')}<svg ${SVG} onload="alert(1)"></svg>`],
    ['a tag the browser would read differently (no space between attributes)', chart('<rect width="1"onload="alert(1)"></rect>')],
    ['unbalanced tags', chart('<g><text>Revenue</g></text>')],
  ])('refuses %s, with a sentence', (_what, content) => {
    const problem = svgProblem(content)
    expect(problem).toMatch(/^[a-z].+\S$/)
    expect(chartFileSchema.safeParse({ format: 'svg', name: 'Chart', content }).success).toBe(false)
  })

  it('refuses it in main’s service too, before any dialog opens', async () => {
    let asked = false
    const files = createChartFiles({
      dialog: {
        chooseSavePath: async () => {
          asked = true
          return null
        },
      },
    })
    const content = chart('<s:script xmlns:s="http://www.w3.org/2000/svg">alert(1)</s:script>')
    await expect(files.save({ format: 'svg', name: 'Chart', content })).rejects.toMatchObject({
      code: 'bad_input',
      message: 'The chart could not be saved: the SVG content has the element <s:script> with a namespace prefix, which a chart never has.',
    })
    expect(asked).toBe(false)
  })

  it('keeps local references, embedded PNG images, escaped text and the usual prolog', () => {
    const content =
      '<?xml version="1.0" encoding="UTF-8"?>\n<!-- chart -->\n' +
      chart(
        '<defs><clipPath id="c0"><path d="M0 0L1 1Z"></path></clipPath><linearGradient id="g0" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#fff"></stop></linearGradient></defs>' +
          '<g clip-path="url(#c0)"><rect width="1" height="1" fill="url(&quot;#g0&quot;)" style="font-size:12px;font-family:&quot;Helvetica Neue&quot;, sans-serif;"></rect></g>' +
          '<use href="#c0"></use><image xlink:href="data:image/png;base64,iVBORw0KGgo=" width="1" height="1"></image>' +
          '<text xml:space="preserve">Germany &lt;b&gt; &amp; &#x41;</text><title>Revenue</title>',
      )
    expect(svgProblem(content)).toBeNull()
  })

  it.each([
    ['line', false],
    ['bar', true],
    ['area', false],
    ['stacked', true],
  ] as const)('accepts the app’s own %s chart (dark %s) as ECharts renders it', (type, dark) => {
    const content = echartsSvg(type, dark)
    // The sample draws what a real chart draws: clip paths, the hover CSS, text.
    expect(content).toContain('<clipPath')
    expect(content).toContain('<style')
    expect(svgProblem(content)).toBeNull()
    expect(chartFileSchema.safeParse({ format: 'svg', name: 'Chart', content }).success).toBe(true)
  })

  it('accepts ECharts’ gradients, shadows and decal patterns', () => {
    const instance = init(null, undefined, { renderer: 'svg', ssr: true, width: 300, height: 200 })
    try {
      instance.setOption({
        animation: false,
        aria: { enabled: true, decal: { show: true } },
        xAxis: { type: 'category', data: ['a', 'b'] },
        yAxis: { type: 'value' },
        series: [
          {
            type: 'bar',
            data: [1, 2],
            itemStyle: {
              shadowBlur: 6,
              shadowColor: 'rgba(0,0,0,0.3)',
              color: {
                type: 'linear',
                x: 0,
                y: 0,
                x2: 0,
                y2: 1,
                colorStops: [
                  { offset: 0, color: '#f00' },
                  { offset: 1, color: '#00f' },
                ],
              },
            },
          },
          {
            type: 'line',
            data: [2, 1],
            areaStyle: {
              color: {
                type: 'radial',
                x: 0.5,
                y: 0.5,
                r: 0.5,
                colorStops: [
                  { offset: 0, color: '#0f0' },
                  { offset: 1, color: '#fff' },
                ],
              },
            },
          },
        ],
      })
      const content = instance.renderToSVGString()
      expect(content).toContain('<linearGradient')
      expect(content).toContain('<filter')
      expect(svgProblem(content)).toBeNull()
    } finally {
      instance.dispose()
    }
  })
})
