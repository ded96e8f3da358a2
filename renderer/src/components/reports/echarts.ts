/**
 * The only ECharts parts the reports screen registers (tree-shaken `echarts/core`): line and bar
 * charts on a grid, the axis tooltip, zoom, and marker lines, painted on canvas.
 */
import { use } from 'echarts/core'
import { BarChart, LineChart } from 'echarts/charts'
import { DataZoomComponent, GridComponent, MarkLineComponent, TooltipComponent } from 'echarts/components'
import { CanvasRenderer } from 'echarts/renderers'

use([LineChart, BarChart, GridComponent, TooltipComponent, DataZoomComponent, MarkLineComponent, CanvasRenderer])

export { default as VChart } from 'vue-echarts'
