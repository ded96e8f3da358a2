import { promises as fs } from 'node:fs'
import { decodeKeptFile, encodeKeptFile, splitValues } from '../../main/services/results/kept-file'

/** A kept result file as one document, the chart's values back in its series (as the first versions stored it): for tests that look inside. */
export async function readKeptFile(filePath: string): Promise<Record<string, unknown> & { result: { series?: Array<Record<string, unknown>> } }> {
  const decoded = decodeKeptFile(await fs.readFile(filePath))
  if ('problem' in decoded) throw new Error(`${filePath}: ${decoded.problem}`)
  const { valueCounts, ...header } = decoded.header as Record<string, unknown> & { valueCounts: number[]; result: { series?: Array<Record<string, unknown>> } }
  const values = splitValues(decoded.values, valueCounts)
  if (!Array.isArray(values)) throw new Error(`${filePath}: ${values.problem}`)
  const series = header.result.series?.map((entry, index) => ({ ...entry, values: values[index] }))
  return { ...header, result: { ...header.result, ...(series ? { series } : {}) } }
}

/** Writes `document` (values in its series, as `readKeptFile` gives it) in the kept file format: for tests that change a file by hand. */
export async function writeKeptFile(
  filePath: string,
  document: Record<string, unknown> & { result: Record<string, unknown> & { series?: Array<{ values: Array<number | null> }> } },
): Promise<void> {
  const series = document.result.series ?? []
  const header = {
    ...document,
    result: document.result.series ? { ...document.result, series: series.map(({ values: _values, ...entry }) => entry) } : document.result,
  }
  await fs.writeFile(
    filePath,
    encodeKeptFile(
      header,
      series.map((entry) => entry.values),
    ),
  )
}
