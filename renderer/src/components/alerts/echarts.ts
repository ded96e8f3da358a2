/**
 * The report chart's ECharts parts (line, grid, tooltip, zoom, marked lines, canvas) plus the
 * scatter series the alert markers are drawn with; loaded with the alert screens only.
 */
import { use } from 'echarts/core'
import { ScatterChart } from 'echarts/charts'
import { VChart } from '../reports/echarts'

use([ScatterChart])

export { VChart }
