/**
 * The only ECharts parts the reports screen registers (tree-shaken `echarts/core`): line and bar
 * charts on a grid, the axis tooltip, zoom, and marker lines, painted on canvas. Saved chart
 * files (useChartFiles) add a legend and the SVG renderer; both load with this chunk only.
 */
import { use } from 'echarts/core'
import { BarChart, LineChart } from 'echarts/charts'
import { DataZoomComponent, GridComponent, LegendComponent, MarkLineComponent, TooltipComponent } from 'echarts/components'
import { CanvasRenderer, SVGRenderer } from 'echarts/renderers'

use([LineChart, BarChart, GridComponent, TooltipComponent, DataZoomComponent, MarkLineComponent, CanvasRenderer, LegendComponent, SVGRenderer])

export { init } from 'echarts/core'

export { default as VChart } from 'vue-echarts'
