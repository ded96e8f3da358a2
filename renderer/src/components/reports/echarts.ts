/**
 * The only ECharts parts the reports screen registers (tree-shaken `echarts/core`): line and bar
 * charts on a grid, the axis tooltip, zoom, marker lines, and the legend (never drawn: it keeps
 * which series are switched off, so a toggle is a selection change, not a new option), on canvas.
 */
import { use } from 'echarts/core'
import { BarChart, LineChart } from 'echarts/charts'
import { DataZoomComponent, GridComponent, LegendComponent, MarkLineComponent, TooltipComponent } from 'echarts/components'
import { CanvasRenderer } from 'echarts/renderers'

use([LineChart, BarChart, GridComponent, TooltipComponent, DataZoomComponent, MarkLineComponent, LegendComponent, CanvasRenderer])

export { default as VChart } from 'vue-echarts'
