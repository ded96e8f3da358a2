import type { AudienceView, OpenTile, TimeSeriesView } from '@contract'
import { legendSeries } from '../../../common/charts/series'
import { tileNumber } from '../../../common/charts/tile-number'
import { fieldsFromValues, formatChange, formatCount, formatValue } from '../../../common/charts/value-format'
import { pivotTable } from '../../../common/pivot/table'
import { tilePivot } from '../../../common/pivot/tile-pivot'
import { chartSvg } from './board-chart-svg'
import type { PageBox } from './board-page-layout'
import { PRINT_COLORS, round, svgText } from './board-svg-text'

/**
 * One tile on the printed page, from its result as the board shows it: a frame, the title, the
 * "as of" stamp of its result, and the view (the chart, the series table, the number with its
 * change, the pivot in its preset's layout, the audience), or "No data: <why>" for a tile without one.
 */

export type BoardTileData = { kind: 'chart'; result: TimeSeriesView; ranAt: string } | { kind: 'audience'; result: AudienceView; ranAt: string }

export interface PrintedTile {
  tile: OpenTile
  data: BoardTileData | null
  /** Why it has no data (or why it shows an older result), as a sentence; null when it ran or was kept fine. */
  reason: string | null
}

const HEAD = 40
const PAD = 10
const LINE = 17

/** "2026-11-26 07:00 UTC": the stamps on a page are read away from the app, so they name their zone. */
export function printedMoment(iso: string): string {
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? iso : `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`
}

export function tileSvg(printed: PrintedTile, box: PageBox): string {
  const { tile, data } = printed
  const inner = { x: box.x + PAD, y: box.y + HEAD, width: box.width - 2 * PAD, height: box.height - HEAD - PAD / 2 }
  const stamp = data === null ? 'No data' : `as of ${printedMoment(data.ranAt)}`
  const parts = [
    `<rect x="${round(box.x)}" y="${round(box.y)}" width="${round(box.width)}" height="${round(box.height)}" rx="6" fill="${PRINT_COLORS.tileBack}" stroke="${PRINT_COLORS.frame}"/>`,
    svgText(tile.title, box.x + PAD, box.y + 18, box.width - 2 * PAD, { size: 13, weight: 'bold' }),
    svgText(stamp, box.x + PAD, box.y + 33, box.width - 2 * PAD, { size: 10, color: PRINT_COLORS.muted }),
  ]
  parts.push(data === null ? missingSvg(printed.reason ?? 'no result is kept for it yet.', inner) : bodySvg(tile, data, inner))
  return `<g>${parts.join('')}</g>`
}

function missingSvg(reason: string, box: PageBox): string {
  return wrapped(`No data: ${reason}`, box, { size: 12, color: PRINT_COLORS.down })
}

function bodySvg(tile: OpenTile, data: BoardTileData, box: PageBox): string {
  if (data.kind === 'audience') return audienceSvg(data.result, box)
  if (tile.view === 'table') return tableSvg(data.result, box)
  if (tile.view === 'number') return numberSvg(data.result, box)
  if (tile.view === 'pivot' && tile.definition !== null) return pivotSvg(data.result, tile.definition, box)
  const chart = tile.definition?.chart
  return chartSvg({ result: data.result, type: chart?.type ?? 'line', hidden: chart?.hidden ?? [] }, box)
}

/** Text broken into lines by words, as many as fit the box. */
function wrapped(text: string, box: PageBox, style: { size: number; color: string }): string {
  const perLine = Math.max(8, Math.floor(box.width / (style.size * 0.56)))
  const lines: string[] = []
  let current = ''
  for (const word of text.split(/\s+/)) {
    if (current !== '' && [...`${current} ${word}`].length > perLine) {
      lines.push(current)
      current = word
    } else current = current === '' ? word : `${current} ${word}`
  }
  if (current !== '') lines.push(current)
  const fit = Math.max(1, Math.floor(box.height / (style.size + 4)))
  return lines
    .slice(0, fit)
    .map((line, index) => svgText(line, box.x, box.y + style.size + index * (style.size + 4), box.width, style))
    .join('')
}

/** Rows of cells; the first row is the header. Rows that do not fit are counted on the last line. */
function rowsSvg(rows: readonly (readonly string[])[], widths: readonly number[], box: PageBox): string {
  const fit = Math.max(2, Math.floor(box.height / LINE))
  const shown = rows.length > fit ? [...rows.slice(0, fit - 1), [`… ${rows.length - fit + 1} more rows`]] : rows
  const parts: string[] = []
  shown.forEach((row, index) => {
    let x = box.x
    const y = box.y + 12 + index * LINE
    row.forEach((cell, column) => {
      const width = (widths[column] ?? 0) * box.width
      const right = column > 0
      parts.push(svgText(cell, right ? x + width - 4 : x, y, width - 6, { size: 11, weight: index === 0 ? 'bold' : 'normal', anchor: right ? 'end' : 'start' }))
      x += width
    })
    if (index === 0)
      parts.push(`<line x1="${round(box.x)}" x2="${round(box.x + box.width)}" y1="${round(y + 5)}" y2="${round(y + 5)}" stroke="${PRINT_COLORS.frame}"/>`)
  })
  return parts.join('')
}

/** Each metric's field as a tile reads it (no report description at hand): whole numbers when all its values are, as on screen. */
function fieldsByMetric(result: TimeSeriesView) {
  return new Map(fieldsFromValues(result.series).map((field) => [field.name, field]))
}

/** The series table as on screen, in short: each line's total over the range and its change. */
function tableSvg(result: TimeSeriesView, box: PageBox): string {
  const fields = fieldsByMetric(result)
  const rows = legendSeries(result).map((series) => [
    series.label,
    formatValue(series.stats.total, fields.get(series.metric)),
    formatChange(series.stats.change),
  ])
  const multi = new Set(result.series.map((series) => series.metric)).size > 1
  const header = ['Line', multi ? 'Total' : `Total ${result.series[0]?.metric ?? ''}`.trim(), 'Change']
  return rowsSvg([header, ...rows], [0.5, 0.3, 0.2], box)
}

/** The pivot as the tile shows it (the preset's layout, or the default one): its value headers and as many rows as fit. */
function pivotSvg(result: TimeSeriesView, definition: NonNullable<OpenTile['definition']>, box: PageBox): string {
  const shown = tilePivot(result, definition)
  const table = pivotTable(shown.pivot, { rowFields: shown.layout.rows, columnDepth: shown.layout.columns.length, columnLabel: shown.columnLabel })
  const names = table.header.at(-1) ?? []
  // A number column's header: its column path (a date, a country) above its value's name, on one line here.
  const pathOf = (index: number) => table.header.slice(0, -1).map((line) => line[index] ?? '')
  const header = [
    names.slice(0, table.labelColumns).join(' / '),
    ...names.slice(table.labelColumns).map((name, offset) => [...pathOf(table.labelColumns + offset), name].filter((part) => part !== '').join(' ')),
  ]
  const rows = table.body.map((line) => [
    line.labels.filter((label) => label !== '').join(' / ') || 'Total',
    ...line.cells.map((cell, index) => {
      const column = table.columns[index]
      return cell === null || column === undefined ? '' : shown.formatCell(cell, column)
    }),
  ])
  const numbers = Math.max(1, header.length - 1)
  const labelShare = numbers > 4 ? 0.3 : 0.4
  return rowsSvg([header, ...rows], [labelShare, ...Array.from({ length: numbers }, () => (1 - labelShare) / numbers)], box)
}

/** A bold digit is about this share of its font size wide: the number is sized so it fits its tile's width. */
const DIGIT_WIDTH = 0.62

/** The number as large as its tile allows (its width for its digits, half its height), with its change and label under it, the block centred. */
function numberSvg(result: TimeSeriesView, box: PageBox): string {
  const number = tileNumber(result)
  if (number === null) return missingSvg('the result has no lines.', box)
  const text = number.value === null ? '—' : formatValue(number.value, fieldsByMetric(result).get(number.metric))
  const size = Math.floor(Math.max(16, Math.min(112, box.height * 0.45, box.width / ([...text].length * DIGIT_WIDTH))))
  const small = Math.round(Math.max(11, Math.min(20, size * 0.28)))
  const blockHeight = size * 1.1 + small * 2.8
  const top = box.y + Math.max(0, (box.height - blockHeight) / 2)
  const parts = [svgText(text, box.x, top + size * 0.9, box.width, { size, weight: 'bold' })]
  if (number.change !== null) {
    const against = number.against === 'comparison' ? 'the comparison period' : 'the bucket before'
    const color = number.change >= 0 ? PRINT_COLORS.up : PRINT_COLORS.down
    parts.push(svgText(`${formatChange(number.change)} vs ${against}`, box.x, top + size * 1.1 + small * 1.2, box.width, { size: small, color }))
  }
  parts.push(svgText(number.label, box.x, top + size * 1.1 + small * 2.5, box.width, { size: small * 0.9, color: PRINT_COLORS.muted }))
  return parts.join('')
}

function audienceSvg(result: AudienceView, box: PageBox): string {
  const names = result.totals.map((total) => total.name)
  const totals = ['Total', ...result.totals.map((total) => (total.value === null ? '—' : formatCount(total.value)))]
  const rows = result.rows.map((row) => [row.label, ...row.values.map((value) => (value.value === null ? '—' : formatCount(value.value)))])
  const share = names.length === 0 ? [] : names.map(() => 0.55 / names.length)
  return rowsSvg([['', ...names], totals, ...rows], [0.45, ...share], box)
}
