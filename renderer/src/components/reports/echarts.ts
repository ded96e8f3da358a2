/**
 * The only ECharts parts the reports screen registers (tree-shaken `echarts/core`): line and bar
 * charts on a grid, the axis tooltip, zoom, marker lines, the legend (never drawn: it keeps
 * which series are switched off, so a toggle is a selection change, not a new option), on
 * canvas. The canvas's spoken description is the chart's own (domain/reports/chartDescription). Saved chart files
 * (useChartFiles) add a drawn legend and the SVG renderer; both load with this chunk only.
 */
import { use } from 'echarts/core'
import { BarChart, LineChart } from 'echarts/charts'
import {
  DataZoomComponent,
  DatasetComponent,
  GridComponent,
  LegendComponent,
  LegendPlainComponent,
  MarkLineComponent,
  TooltipComponent,
} from 'echarts/components'
import { CanvasRenderer, SVGRenderer } from 'echarts/renderers'
import { installCategoryFastPath } from './categoryFastPath'
import { installSteadyLinePaths } from './steadyLinePaths'

use([
  LineChart,
  BarChart,
  GridComponent,
  TooltipComponent,
  DataZoomComponent,
  MarkLineComponent,
  LegendPlainComponent,
  DatasetComponent,
  CanvasRenderer,
  LegendComponent,
  SVGRenderer,
])

installCategoryFastPath()
installSteadyLinePaths()

export { init } from 'echarts/core'

export { default as VChart } from 'vue-echarts'
