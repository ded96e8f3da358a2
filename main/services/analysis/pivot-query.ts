import {
  PIVOT_WINDOW_LIMITS,
  type PivotColumn,
  type PivotHeader,
  type PivotLayout,
  type PivotWindow,
  type PivotWindowRequest,
} from '../../../common/pivot/types'
import { AppError } from '../errors'
import { sqlIdentifier, type CellValue, type LockedDatabase } from './engine'
import type { AnalysisColumn } from './opened-files'

/**
 * A pivot of an opened file, computed by the engine: the layout becomes one GROUPING SETS query
 * (every prefix of the row fields × every prefix of the column fields, so subtotals and totals
 * come from the same pass and sorting by a parent's value needs no second query), kept in three
 * temporary tables (the rows in display order, the columns in display order, the cells by their
 * indexes), so a window is a range read however large the pivot is. Column names come from the
 * file and are quoted; every value the user typed (a filter, a sort column's labels) is a parameter.
 */

export const ANALYSIS_FILTER_OPERATORS = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'contains', 'empty', 'not_empty'] as const
export type AnalysisFilterOperator = (typeof ANALYSIS_FILTER_OPERATORS)[number]

export interface AnalysisFilter {
  column: string
  operator: AnalysisFilterOperator
  value: string
}

/** A key cell with no value: a label of its own, sorted last. */
export const EMPTY_LABEL = '(empty)'
export const TOTAL_LABEL = 'Total'
export const OTHERS_LABEL = 'Others'

export const PIVOT_QUERY_LIMITS = { levels: 6, values: 12 } as const

export interface EnginePivot {
  rowCount: number
  columnCount: number
  window(request: PivotWindowRequest): Promise<PivotWindow>
  drop(): Promise<void>
}

const NUMERIC_TYPES = /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|UHUGEINT|FLOAT|DOUBLE|DECIMAL.*)$/i

const rowKeys = (count: number): string[] => Array.from({ length: count }, (_, index) => `r${index}`)
const columnKeys = (count: number): string[] => Array.from({ length: count }, (_, index) => `c${index}`)

function checkLayout(layout: PivotLayout, columns: readonly AnalysisColumn[]): void {
  const known = new Set(columns.map((column) => column.name))
  const missing = [...layout.rows, ...layout.columns, ...layout.values.map((value) => value.field)].filter((field) => !known.has(field))
  if (missing.length > 0)
    throw new AppError('bad_input', `The file has no column ${missing.map((field) => `"${field}"`).join(', ')}; pick columns from the list.`)
  const both = layout.rows.filter((field) => layout.columns.includes(field))
  if (both.length > 0 || new Set(layout.rows).size < layout.rows.length || new Set(layout.columns).size < layout.columns.length)
    throw new AppError('bad_input', 'A column can be used once, down the side or across the top; remove the repeated one.')
  if (layout.rows.length > PIVOT_QUERY_LIMITS.levels || layout.columns.length > PIVOT_QUERY_LIMITS.levels)
    throw new AppError(
      'bad_input',
      `A pivot takes at most ${PIVOT_QUERY_LIMITS.levels} fields down the side and ${PIVOT_QUERY_LIMITS.levels} across; remove some.`,
    )
  if (layout.values.length === 0 || layout.values.length > PIVOT_QUERY_LIMITS.values)
    throw new AppError('bad_input', `A pivot needs between 1 and ${PIVOT_QUERY_LIMITS.values} values in its cells; pick a column to sum or count.`)
  if (layout.sort.by === 'change') throw new AppError('bad_input', 'An opened file has no comparison period to sort by change; sort by a value or a label.')
  if (layout.sort.by === 'value' && layout.values[layout.sort.value] === undefined)
    throw new AppError('bad_input', 'The sort names a value the pivot does not have; pick one of its values.')
}

function filterSql(filter: AnalysisFilter, types: ReadonlyMap<string, string>, parameters: CellValue[]): string {
  const column = sqlIdentifier(filter.column)
  if (!types.has(filter.column)) throw new AppError('bad_input', `The file has no column "${filter.column}" to filter on; pick one from the list.`)
  const text = `CAST(${column} AS VARCHAR)`
  const number = `TRY_CAST(${column} AS DOUBLE)`
  const compare = (left: string, operator: string, value: CellValue): string => {
    parameters.push(value)
    return `${left} ${operator} ?`
  }
  const asNumber = (): number => {
    const value = Number(filter.value)
    if (filter.value.trim() === '' || !Number.isFinite(value))
      throw new AppError('bad_input', `"${filter.value}" is not a number to compare ${filter.column} with; type a number.`)
    return value
  }
  switch (filter.operator) {
    case 'eq':
      return compare(text, '=', filter.value)
    case 'ne':
      return `(${column} IS NULL OR ${compare(text, '<>', filter.value)})`
    case 'gt':
      return compare(number, '>', asNumber())
    case 'gte':
      return compare(number, '>=', asNumber())
    case 'lt':
      return compare(number, '<', asNumber())
    case 'lte':
      return compare(number, '<=', asNumber())
    case 'contains':
      parameters.push(filter.value)
      return `contains(lower(${text}), lower(?))`
    case 'empty':
      return `(${column} IS NULL OR ${text} = '')`
    case 'not_empty':
      return `(${column} IS NOT NULL AND ${text} <> '')`
  }
}

const aggregateSql = (aggregate: PivotLayout['values'][number]['aggregate'], input: string): string =>
  aggregate === 'count' ? `count(${input})` : `${aggregate}(${input})`

/** The SQL of the pivot's tables (exported for the unit tests, which read it). */
export function pivotStatements(
  table: string,
  columns: readonly AnalysisColumn[],
  layout: PivotLayout,
  filters: readonly AnalysisFilter[],
  name: string,
): { statements: string[]; parameters: CellValue[][] } {
  checkLayout(layout, columns)
  const types = new Map(columns.map((column) => [column.name, column.type]))
  const R = layout.rows.length
  const C = layout.columns.length
  const r = rowKeys(R)
  const c = columnKeys(C)
  const baseParameters: CellValue[] = []
  const where = filters.map((filter) => filterSql(filter, types, baseParameters))
  const inputs = layout.values.map(({ field, aggregate }) =>
    aggregate === 'count' || NUMERIC_TYPES.test(types.get(field) ?? '') ? sqlIdentifier(field) : `TRY_CAST(${sqlIdentifier(field)} AS DOUBLE)`,
  )
  const base = `SELECT ${[
    ...layout.rows.map((field, index) => `${sqlIdentifier(field)} AS r${index}`),
    ...layout.columns.map((field, index) => `${sqlIdentifier(field)} AS c${index}`),
    ...inputs.map((input, index) => `${input} AS x${index}`),
  ].join(', ')} FROM ${sqlIdentifier(table)}${where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''}`

  const sortValue = layout.sort.by === 'value' ? layout.sort.value : 0
  const sortColumn = layout.sort.by === 'value' ? (layout.sort.column ?? []) : []
  if (sortColumn.length > 0 && sortColumn.length !== C && !(layout.subtotals && sortColumn.length < C))
    throw new AppError('bad_input', 'The sort names a column the pivot does not show; pick a column of the grid or the total.')
  const labelOf = (key: string): string => `coalesce(CAST(${key} AS VARCHAR), '${EMPTY_LABEL}')`
  const sortColumnMatch = sortColumn.map((_, index) => `${labelOf(`c${index}`)} = ?`)
  const sortAggregate = aggregateSql(layout.values[sortValue]!.aggregate, `x${sortValue}`)

  // Top N: the N outermost row keys with the largest sort value; the rest are marked and folded into one Others row.
  const topParameters: CellValue[] = []
  let marked: string
  if (layout.top !== null && R > 0) {
    topParameters.push(...sortColumn)
    const topWhere = sortColumnMatch.length > 0 ? ` WHERE ${sortColumnMatch.join(' AND ')}` : ''
    marked = `top_keys AS (SELECT r0, true AS kept FROM base${topWhere} GROUP BY r0 ORDER BY ${sortAggregate} DESC NULLS LAST, r0 NULLS LAST LIMIT ${Math.max(0, Math.floor(layout.top))}),
      marked AS (SELECT top_keys.kept IS NULL AS o, ${[
        ...r.map((key) => `CASE WHEN top_keys.kept IS NULL THEN NULL ELSE base.${key} END AS ${key}`),
        ...c.map((key) => `base.${key}`),
        ...layout.values.map((_, index) => `base.x${index}`),
      ].join(', ')} FROM base LEFT JOIN top_keys ON base.r0 IS NOT DISTINCT FROM top_keys.r0)`
  } else marked = `marked AS (SELECT false AS o, * FROM base)`

  const sets: string[] = []
  for (let rowDepth = 0; rowDepth <= R; rowDepth++)
    for (let columnDepth = 0; columnDepth <= C; columnDepth++)
      sets.push(`(${[...(rowDepth > 0 ? ['o'] : []), ...r.slice(0, rowDepth), ...c.slice(0, columnDepth)].join(', ')})`)
  const depth = (keys: string[]): string => (keys.length === 0 ? '0' : `${keys.length} - (${keys.map((key) => `grouping(${key})`).join(' + ')})`)
  const aggregated = `CREATE TEMP TABLE ${name}_agg AS WITH base AS (${base}), ${marked}
    SELECT ${R > 0 ? 'coalesce(o, false)' : 'false'} AS o, ${[...r, ...c].map((key) => `${key}, `).join('')}${depth(r)} AS rd, ${depth(c)} AS cd,
      ${layout.values.map(({ aggregate }, index) => `${aggregateSql(aggregate, `x${index}`)} AS v${index}`).join(', ')}
    FROM marked GROUP BY GROUPING SETS (${sets.join(', ')})`

  const join = (left: string, right: string, keys: string[]): string => keys.map((key) => ` AND ${left}.${key} IS NOT DISTINCT FROM ${right}.${key}`).join('')
  const direction = (ascending: boolean): string => (ascending ? 'ASC' : 'DESC')
  const byValue = layout.sort.by === 'value'
  const ascending = layout.sort.direction === 'asc'
  const rowOrder: string[] = []
  for (let level = 1; level <= R; level++) {
    rowOrder.push(`(rd < ${level}) ASC`)
    if (level === 1) rowOrder.push('o ASC')
    if (byValue) rowOrder.push(`s${level} ${direction(ascending)} NULLS LAST`)
    rowOrder.push(`r${level - 1} ${direction(byValue || ascending)} NULLS LAST`)
  }
  const ancestors = r.map(
    (_, index) => `max(CASE WHEN rd = ${index + 1} THEN s END) OVER (PARTITION BY o, ${r.slice(0, index + 1).join(', ')}) AS s${index + 1}`,
  )
  const rowTable = `CREATE TEMP TABLE ${name}_rows AS WITH keys AS (SELECT DISTINCT o, rd${r.map((key) => `, ${key}`).join('')} FROM ${name}_agg),
      sorted AS (SELECT keys.*, sort_values.s FROM keys LEFT JOIN (SELECT o, rd${r.map((key) => `, ${key}`).join('')}, v${sortValue} AS s FROM ${name}_agg
        WHERE cd = ${sortColumn.length}${sortColumnMatch.map((match) => ` AND ${match}`).join('')}) AS sort_values ON keys.o = sort_values.o AND keys.rd = sort_values.rd${join('keys', 'sort_values', r)}),
      ranked AS (SELECT *${ancestors.map((expression) => `, ${expression}`).join('')} FROM sorted)
    SELECT o, rd${r.map((key) => `, ${key}`).join('')}, row_number() OVER (ORDER BY ${[...rowOrder, 'rd ASC'].join(', ')}) - 1 AS ri FROM ranked
    WHERE rd = 0 OR (o AND rd = 1) OR (NOT o AND (rd = ${R}${layout.subtotals ? ' OR rd >= 1' : ''}))`
  const columnOrder = c.flatMap((key, index) => [`(cd < ${index + 1}) ASC`, `${key} ASC NULLS LAST`])
  const columnTable = `CREATE TEMP TABLE ${name}_cols AS SELECT cd${c.map((key) => `, ${key}`).join('')}, row_number() OVER (ORDER BY ${[...columnOrder, 'cd ASC'].join(', ')}) - 1 AS ci
    FROM (SELECT DISTINCT cd${c.map((key) => `, ${key}`).join('')} FROM ${name}_agg) AS keys WHERE cd = 0 OR cd = ${C}${layout.subtotals ? ' OR cd >= 1' : ''}`
  const cellTable = `CREATE TEMP TABLE ${name}_cells AS SELECT rows.ri, cols.ci${layout.values.map((_, index) => `, a.v${index}`).join('')}
    FROM ${name}_agg AS a JOIN ${name}_rows AS rows ON a.o = rows.o AND a.rd = rows.rd${join('a', 'rows', r)}
    JOIN ${name}_cols AS cols ON a.cd = cols.cd${join('a', 'cols', c)}`
  return {
    statements: [aggregated, rowTable, columnTable, cellTable, `DROP TABLE ${name}_agg`],
    parameters: [[...baseParameters, ...topParameters], [...sortColumn], [], [], []],
  }
}

const labelOfValue = (value: CellValue): string => (value === null ? EMPTY_LABEL : String(value))

function headerOf(depth: number, others: boolean, labels: CellValue[], fullDepth: number): PivotHeader {
  if (others) return { path: [OTHERS_LABEL], kind: 'others' }
  if (depth === 0) return { path: fullDepth === 0 ? [] : [TOTAL_LABEL], kind: fullDepth === 0 ? 'item' : 'total' }
  const path = labels.slice(0, depth).map(labelOfValue)
  return depth === fullDepth ? { path, kind: 'item' } : { path: [...path, TOTAL_LABEL], kind: 'subtotal' }
}

const clamp = (value: number, low: number, high: number): number => Math.max(low, Math.min(high, Math.floor(value)))

export async function computePivot(
  database: LockedDatabase,
  table: string,
  columns: readonly AnalysisColumn[],
  layout: PivotLayout,
  filters: readonly AnalysisFilter[],
  name: string,
): Promise<EnginePivot> {
  const { statements, parameters } = pivotStatements(table, columns, layout, filters, name)
  try {
    for (const [index, statement] of statements.entries()) await database.run(statement, parameters[index])
  } catch (error) {
    await dropTables(database, name)
    throw error
  }
  const R = layout.rows.length
  const C = layout.columns.length
  const V = layout.values.length
  const counts = await database.read(`SELECT (SELECT count(*) FROM ${name}_rows), (SELECT count(*) FROM ${name}_cols)`)
  const rowCount = Number(counts.rows[0]?.[0] ?? 0)
  const headerCount = Number(counts.rows[0]?.[1] ?? 0)
  const columnCount = headerCount * V
  return {
    rowCount,
    columnCount,
    async window(request) {
      const rowStart = clamp(request.rowStart, 0, rowCount)
      const rowEnd = clamp(rowStart + Math.min(request.rowCount, PIVOT_WINDOW_LIMITS.rows), rowStart, rowCount)
      const columnStart = clamp(request.columnStart, 0, columnCount)
      const columnEnd = clamp(columnStart + Math.min(request.columnCount, PIVOT_WINDOW_LIMITS.columns), columnStart, columnCount)
      const firstHeader = Math.floor(columnStart / V)
      const lastHeader = Math.floor((columnEnd - 1) / V)
      const rowHeaders = await database.read(
        `SELECT rd, o${rowKeys(R)
          .map((key) => `, ${key}`)
          .join('')} FROM ${name}_rows WHERE ri >= ? AND ri < ? ORDER BY ri`,
        [rowStart, rowEnd],
      )
      const columnHeaders = await database.read(
        `SELECT cd${columnKeys(C)
          .map((key) => `, ${key}`)
          .join('')} FROM ${name}_cols WHERE ci >= ? AND ci <= ? ORDER BY ci`,
        [firstHeader, lastHeader],
      )
      const cellRows = await database.read(
        `SELECT ri, ci${Array.from({ length: V }, (_, index) => `, v${index}`).join('')} FROM ${name}_cells WHERE ri >= ? AND ri < ? AND ci >= ? AND ci <= ?`,
        [rowStart, rowEnd, firstHeader, lastHeader],
      )
      const rows = rowHeaders.rows.map(([depth, others, ...labels]) => headerOf(Number(depth), others === true, labels, R))
      const headers = columnHeaders.rows.map(([depth, ...labels]) => headerOf(Number(depth), false, labels, C))
      const leafColumns: PivotColumn[] = []
      for (let index = columnStart; index < columnEnd; index++) {
        const header = headers[Math.floor(index / V) - firstHeader]
        if (header !== undefined) leafColumns.push({ header, value: index % V, measure: 'value' })
      }
      const cells: (number | null)[][] = rows.map(() => leafColumns.map(() => null))
      for (const [rowIndex, headerIndex, ...values] of cellRows.rows) {
        const line = cells[Number(rowIndex) - rowStart]
        if (line === undefined) continue
        values.forEach((value, valueIndex) => {
          const leaf = Number(headerIndex) * V + valueIndex - columnStart
          if (leaf >= 0 && leaf < leafColumns.length) line[leaf] = value === null ? null : Number(value)
        })
      }
      return { rowCount, columnCount, rowStart, columnStart, rows, columns: leafColumns, cells }
    },
    drop: () => dropTables(database, name),
  }
}

async function dropTables(database: LockedDatabase, name: string): Promise<void> {
  for (const suffix of ['agg', 'rows', 'cols', 'cells']) await database.run(`DROP TABLE IF EXISTS ${name}_${suffix}`).catch(() => undefined)
}
