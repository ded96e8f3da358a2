import type { TimeSeriesView } from '@contract'
import type { ChartField } from '../../../../common/charts/chart-shapes'
import { baseKey, categoryText } from '../../../../common/charts/series'
import { changeOf, escapeHtml, formatChange, formatValue } from '../../../../common/charts/value-format'

/** At most this many rows in the tooltip; the rest are counted. */
export const TOOLTIP_ROWS = 15

export interface TooltipRow {
  key: string
  label: string
  value: number | null
  text: string
  change: number | null
  color: string
}

/**
 * The rows of the axis tooltip at one category: shown lines and totals sorted by value (largest
 * first, gaps last), each with its change against the comparison series at the same position.
 */
export function tooltipRows(
  result: TimeSeriesView,
  index: number,
  shownKeys: ReadonlySet<string>,
  fields: readonly ChartField[],
  colors: ReadonlyMap<string, string>,
): TooltipRow[] {
  const compared = new Map(result.series.filter((series) => series.role === 'comparison').map((series) => [baseKey(series), series]))
  const rows: TooltipRow[] = []
  for (const series of result.series) {
    if (series.role === 'comparison' || !shownKeys.has(series.key)) continue
    const value = series.values[index] ?? null
    const previous = compared.get(series.key)?.values[index] ?? null
    const field = fields.find((candidate) => candidate.name === series.metric)
    rows.push({
      key: series.key,
      label: series.label,
      value,
      text: formatValue(value, field),
      change: changeOf(value, previous),
      color: colors.get(series.key) ?? '#888888',
    })
  }
  return rows.sort((left, right) => (right.value ?? Number.NEGATIVE_INFINITY) - (left.value ?? Number.NEGATIVE_INFINITY))
}

export function tooltipHtml(
  result: TimeSeriesView,
  index: number,
  shownKeys: ReadonlySet<string>,
  fields: readonly ChartField[],
  colors: ReadonlyMap<string, string>,
  showMarkers: boolean,
): string {
  const category = result.categories[index] ?? ''
  const previous = result.comparisonCategories[index]
  // A named category (a publisher…) shows its name with its id beside it: both are how people know it.
  const named = categoryText(result, category)
  const title = named === category ? escapeHtml(category) : `${escapeHtml(named)} <span style="opacity:.6;font-weight:400">${escapeHtml(category)}</span>`
  const rows = tooltipRows(result, index, shownKeys, fields, colors)
  const hasComparison = result.comparisonRange !== null
  const header = `<div style="font-weight:600;margin-bottom:4px">${title}${hasComparison && previous && previous !== category ? `<span style="opacity:.6;font-weight:400"> vs ${escapeHtml(categoryText(result, previous))}</span>` : ''}</div>`
  const lines = rows.slice(0, TOOLTIP_ROWS).map((row) => {
    const swatch = `<span style="display:inline-block;width:8px;height:8px;border-radius:50%;background:${row.color};margin-right:6px"></span>`
    const change = hasComparison
      ? `<span style="opacity:.7;margin-left:8px;min-width:52px;text-align:right;display:inline-block">${formatChange(row.change)}</span>`
      : ''
    return `<div style="display:flex;justify-content:space-between;gap:16px"><span>${swatch}${escapeHtml(row.label)}</span><span><b>${row.text}</b>${change}</span></div>`
  })
  const more = rows.length > TOOLTIP_ROWS ? [`<div style="opacity:.6">… and ${rows.length - TOOLTIP_ROWS} more</div>`] : []
  const markers = showMarkers
    ? result.markers
        .filter((marker) => marker.date === category)
        .map(
          (marker) =>
            `<div style="margin-top:4px;color:#c98f00">◆ ${escapeHtml(marker.message)} <span style="opacity:.7">— ${escapeHtml(marker.author)}</span></div>`,
        )
    : []
  return header + [...lines, ...more, ...markers].join('')
}
