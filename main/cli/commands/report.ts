import { constants, promises as fs } from 'node:fs'
import path from 'node:path'
import type { ReportRequest } from '../../services/reporting/schemas'
import { saveStreamAtomically } from '../../services/reporting/save-export'
import { exportColumns, type ExportColumns } from '../../services/exports/export-columns'
import { readableFile } from '../../services/exports/readable-file'
import { createRowCounter, endsWithOthers } from '../../services/exports/rows'
import type { ReportingClient } from '../../services/reporting/client'
import type { Command, CommandContext } from '../command'
import { readJsonObject, writeJson } from '../io'
import { progressFor } from '../progress'
import { UsageError } from '../usage'

/** The request body as in the spec; a token in it is dropped (the client adds the right one). */
async function requestArgument(context: CommandContext): Promise<ReportRequest> {
  const source = context.values.request
  if (source === undefined) throw new UsageError('--request FILE (or --request - for standard input) is required.')
  const { token: _ignored, ...request } = await readJsonObject(source, '--request', context.io.stdin)
  const missing = (['project_name', 'slicer_name'] as const).filter((key) => typeof request[key] !== 'string' || request[key] === '')
  if (missing.length > 0) throw new UsageError(`The request needs ${missing.join(' and ')}.`)
  return request as ReportRequest
}

/** --help lines for the request shapes the platform takes (the client refuses the older ones). */
const FILTER_NOTES = [
  'The request is JSON as the platform takes it, for example:',
  '  "start_date": "-1d_m_first", "end_date": "yesterday"   dates: YYYY-MM-DD, today, yesterday, -Nd, -Nm, -Nm_first, -Nm_last, -Nd_m_first',
  '  "filters": [{"name": "country", "value": ["US"], "match": "equals"}]',
  '     match: equals, not equals, contains, not contains, begins with, ends with, beginswith, endswith, not beginswith, not endswith',
]
const TABLE_NOTES = [
  '  "data_filters": [{"name": "impressions", "match": ">=", "value": "1"}]   match: > >= < <= = !=',
  '  "order_by": {"name": "impressions", "direction": "DESC", "mapping": 0}   or an array of them; mapping 1 sorts by the mapping text',
]
const AUDIENCE_NOTES = [
  '  "audience_key": "users"   one of info\'s audience_sources (default: the first)',
  '  "audience_rows_limit": 1000000   10000 to 10000000; more is more precise and slower',
]

const info: Command = {
  group: 'report',
  name: 'info',
  args: [],
  options: ['project', 'slicer'],
  connection: 'reporting',
  summary: 'describe a report: its key fields, data fields and dates',
  async run(context) {
    const { project, slicer } = context.values
    if (project === undefined || slicer === undefined) throw new UsageError('report info needs --project P and --slicer S.')
    const connection = await context.connect()
    await writeJson(context.io.stdout, await connection.reporting.info({ project_name: project, slicer_name: slicer }, { signal: context.signal }))
  },
}

const timeSeries: Command = {
  group: 'report',
  name: 'time-series',
  args: [],
  options: ['request'],
  connection: 'reporting',
  summary: 'chart data over a granularity (POST /API/v2/time_series)',
  notes: [...FILTER_NOTES, ...TABLE_NOTES],
  async run(context) {
    const request = await requestArgument(context)
    const connection = await context.connect()
    await writeJson(context.io.stdout, await connection.reporting.timeSeries(request, { signal: context.signal }))
  },
}

const audience: Command = {
  group: 'report',
  name: 'audience',
  args: [],
  options: ['request'],
  connection: 'reporting',
  summary: 'unique-user counts (POST /API/v2/audience)',
  notes: [...FILTER_NOTES, ...AUDIENCE_NOTES],
  async run(context) {
    const request = await requestArgument(context)
    const connection = await context.connect()
    await writeJson(context.io.stdout, await connection.reporting.audience(request, { signal: context.signal }))
  },
}

/** Fails before any request when the file could not be written anyway. */
export async function checkOutPath(out: string): Promise<string> {
  const target = path.resolve(out)
  const stat = await fs.stat(target).catch(() => null)
  if (stat?.isDirectory() === true) throw new UsageError(`--out ${out} is a folder; give a file name.`)
  try {
    await fs.access(path.dirname(target), constants.W_OK)
  } catch {
    throw new UsageError(`--out ${out}: the folder ${path.dirname(target)} does not exist or cannot be written.`)
  }
  return target
}

/**
 * With --screen-names, the file's header as the app's exports name it ("Day", "Publisher name";
 * the report's `info` asked for the labels) and an xlsx's dates typed; without it, null: the
 * platform's file as it sent it, which is what scripts written against this command read.
 */
async function columnsOf(
  request: ReportRequest,
  reporting: ReportingClient,
  screenNames: boolean,
  signal: AbortSignal | undefined,
): Promise<ExportColumns | null> {
  if (!screenNames) return null
  const asList = (value: unknown): string[] =>
    Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : typeof value === 'string' ? [value] : []
  const keys = asList(request.split_by)
  const dataFields = asList(request.data_fields)
  const info = await reporting.info({ project_name: request.project_name, slicer_name: request.slicer_name }, signal ? { signal } : {})
  return exportColumns({ keyFields: info.key_fields, dataFields: info.data_fields }, keys, dataFields, false)
}

const exportReport: Command = {
  group: 'report',
  name: 'export',
  args: [],
  options: ['request', 'out', 'progress', 'screen-names'],
  connection: 'reporting',
  summary: 'download a report file (xlsx, csv, tsv) to --out, whole or not at all',
  notes: [
    'The file appears at --out only once complete; on any failure, or Ctrl-C, nothing is left there (an existing file is kept).',
    'Progress (bytes, rows for csv/tsv, rate) shows on standard error when it is a terminal, or with --progress.',
    'A csv/tsv export past the platform\'s cap (1,000,000 rows) ends with an Others row; "capped": true says so.',
    "The file is the platform's, byte for byte (publisher, publisher Name, granularity_day, impressions); --screen-names",
    "names the columns as the app does (Publisher, Publisher name, Day, Impressions) and makes an xlsx file's dates date cells.",
    '',
    ...FILTER_NOTES,
    ...TABLE_NOTES,
  ],
  async run(context) {
    if (context.values.out === undefined) throw new UsageError('report export needs --out PATH.')
    const target = await checkOutPath(context.values.out)
    const request = await requestArgument(context)
    const format = request.export_format
    const counter = format === 'csv' || format === 'tsv' ? createRowCounter(format) : null
    const rows = (): number | null => (counter === null ? null : Math.max(0, counter.lines() - 1))
    const progress = progressFor(context.io.stderr, context.values.progress === true)
    const connection = await context.connect()
    const columns = await columnsOf(request, connection.reporting, context.values['screen-names'] === true, context.signal)
    const download = await connection.reporting.export(request, { signal: context.signal })
    let bytes = 0
    const body =
      columns !== null && (format === 'csv' || format === 'tsv' || format === 'xlsx') ? await readableFile(download.body, format, columns) : download.body
    const onChunk = (chunk: Uint8Array): void => {
      bytes += chunk.length
      counter?.push(chunk)
      progress?.update(bytes, rows())
    }
    try {
      await saveStreamAtomically(body, target, { signal: context.signal, onChunk })
    } finally {
      // The line ends either way, so an error message starts on its own line.
      progress?.end(bytes, rows())
    }
    const capped = counter === null ? null : endsWithOthers(counter.lastFirstCells(2), request.include_total === 1)
    await writeJson(context.io.stdout, { path: target, bytes, rows: rows(), capped, contentType: download.contentType })
  },
}

export const reportCommands: readonly Command[] = [info, timeSeries, audience, exportReport]
