import { GroupSums, groupRecords, metricsOf } from './aggregate'
import type { ReportContext } from './context'
import { bucketOfLocalHour, TIME_GRANULARITIES } from './dates'
import { badRequest } from './errors'
import { findDataField, presentValue } from './fields'
import type { DataField } from './fields'
import { KeyModel } from './keys'
import type { KeyAccessor } from './keys'
import { presentMarker } from './markers'
import type { ServedMarker } from './markers'
import { parseBody, timeSeriesSchema } from './request'
import { accessorOrFail, resolveScope } from './scope'
import { passesDataFilters, resolveDataFilters, resolveOrder, sortRows } from './table'
import type { RowSource, SortTerm } from './table'

export const TOTAL_LINE = '__total__'
export const LINE_SEPARATOR = '\u0002'
const DEFAULT_LIMIT = 30

/** `day` is short for `granularity_day`; any other name is taken as a key field. */
export function granularityField(name: string): string {
  return TIME_GRANULARITIES.some((granularity) => granularity === name) ? `granularity_${name}` : name
}

export function checkSplitBy(splitBy: readonly string[]): void {
  splitBy.forEach((name, index) => {
    if (splitBy.indexOf(name) !== index) throw badRequest(`Invalid parameter split_by[${index}]: '${name}' is listed twice`)
  })
}

interface ChartLine {
  name: string
  codes: number[] | null
}

function resolveLines(chartLines: readonly string[], splits: readonly KeyAccessor[]): ChartLine[] {
  const unique = [...new Set(chartLines)]
  return unique.map((name) => {
    if (name === TOTAL_LINE) return { name, codes: null }
    const index = chartLines.indexOf(name)
    if (splits.length === 0) throw badRequest(`Invalid parameter chart_lines[${index}]: '${name}' needs split_by (only ${TOTAL_LINE} works without it)`)
    const parts = name.split(LINE_SEPARATOR)
    if (parts.length !== splits.length) {
      throw badRequest(`Invalid parameter chart_lines[${index}]: must join ${splits.length} split_by value(s) with U+0002, got ${parts.length}`)
    }
    const codes = parts.map((part, position) => (splits[position] as KeyAccessor).lookup(part))
    // A value that never occurs is a valid line that stays at zero.
    return { name, codes: codes.every((code) => code !== undefined) ? codes : [] }
  })
}

export function timeSeries(context: ReportContext, raw: unknown): Record<string, unknown> {
  const body = parseBody(timeSeriesSchema, raw)
  const field = findDataField(body.data_field, context.user)
  if (!field) throw badRequest(`Invalid parameter data_field: unknown data field '${body.data_field}'`)
  checkSplitBy(body.split_by)
  const scope = resolveScope(context, body)
  const x = accessorOrFail(context, granularityField(body.granularity), scope.range, 'granularity')
  const splits = body.split_by.map((name, index) => accessorOrFail(context, name, scope.range, `split_by[${index}]`))
  const lines = resolveLines(body.chart_lines, splits)
  const dataFilters = resolveDataFilters(context.user, body.data_filters, body.data_filter_template)
  const orderTerms = resolveOrder(context.user, body.order_by, [x])

  // Cells are (x value, split values) rows; data filters judge each cell as an export row would be judged.
  const grouping = groupRecords(scope.records, [x, ...splits])
  const fields: DataField[] = [field, ...dataFilters.items.map((item) => item.field)]
  for (const term of orderTerms) if (term.kind === 'field') fields.push(term.field)
  const sums = new GroupSums(context.facts, scope.records, grouping, metricsOf(fields))

  const lineIndex = new Map<string, number>()
  lines.forEach((line, index) => {
    if (line.codes && line.codes.length > 0) lineIndex.set(line.codes.join(','), index)
  })
  const cellsOfX = new Map<number, number[]>()
  const cellOfLine = new Map<number, Map<number, number>>()
  const xCodes = grouping.keyCodes[0] ?? new Int32Array(0)
  for (let cell = 0; cell < grouping.count; cell++) {
    if (!passesDataFilters(dataFilters, (candidate) => sums.value(candidate, cell))) continue
    const xCode = xCodes[cell] as number
    let cells = cellsOfX.get(xCode)
    if (!cells) cellsOfX.set(xCode, (cells = []))
    cells.push(cell)
    if (lineIndex.size === 0) continue
    const key = splits.map((_, position) => (grouping.keyCodes[position + 1] as Int32Array)[cell]).join(',')
    const line = lineIndex.get(key)
    if (line === undefined) continue
    let byLine = cellOfLine.get(xCode)
    if (!byLine) cellOfLine.set(xCode, (byLine = new Map()))
    byLine.set(line, cell)
  }

  // Time granularity: every bucket of the range, chronological. Key granularity: values with data, top `limit`.
  const rowCodes = x.time ? Int32Array.from({ length: x.cardinality }, (_, code) => code) : Int32Array.from([...cellsOfX.keys()])
  const source: RowSource = {
    count: rowCodes.length,
    keys: [x],
    value: (candidate, position) => sums.combined(candidate, cellsOfX.get(rowCodes[position] as number) ?? []),
    code: (_, position) => rowCodes[position] as number,
  }
  const defaultTerms: SortTerm[] = x.time ? [] : [{ kind: 'field', field, descending: true }]
  let positions = sortRows(source, Int32Array.from(rowCodes.keys()), orderTerms.length > 0 ? orderTerms : defaultTerms)
  if (!x.time) positions = positions.slice(0, body.limit ?? DEFAULT_LIMIT)

  const markersByCode = new Map<number, ServedMarker[]>()
  const time = x.time
  if (time) {
    const referer = `${context.reportUrl}/#/demo/supply?${new URLSearchParams({
      granularity: x.name,
      start_date: body.start_date,
      end_date: body.end_date,
      timezone: String(scope.range.timezone),
      data_field: field.info.name,
    }).toString()}`
    const firstBucket = KeyModel.bucketOfCode(time, scope.range, 0)
    for (const marker of context.markers) {
      if (marker.hour < scope.range.startHour || marker.hour >= scope.range.endHour) continue
      const code = bucketOfLocalHour(time, marker.hour + scope.range.timezone) - firstBucket
      const list = markersByCode.get(code) ?? []
      list.push(presentMarker(marker, time, scope.range.timezone, referer))
      markersByCode.set(code, list)
    }
  }

  const rows = Array.from(positions, (position) => {
    const code = rowCodes[position] as number
    const row: Record<string, unknown> = {
      __time__: x.text(code),
      __mapping__: time ? KeyModel.timeMapping(time, scope.range, code) : x.mapping(code),
    }
    lines.forEach((line, index) => {
      if (line.codes === null) {
        row[line.name] = presentValue(field, sums.combined(field, cellsOfX.get(code) ?? []))
      } else {
        const cell = cellOfLine.get(code)?.get(index)
        row[line.name] = cell === undefined ? 0 : presentValue(field, sums.value(field, cell))
      }
    })
    const markers = markersByCode.get(code)
    if (markers) row['__markers__'] = markers
    return row
  })

  const mappings: Record<string, Record<string, string | null>> = {}
  splits.forEach((split, position) => {
    const values: Record<string, string | null> = {}
    for (const line of lines) {
      if (line.codes === null) continue
      const part = line.name.split(LINE_SEPARATOR)[position] ?? ''
      const code = line.codes[position]
      values[part] = code === undefined || !split.hasMapping ? null : split.mapping(code)
    }
    mappings[split.name] = values
  })

  return { status: 'success', mappings, rows }
}
