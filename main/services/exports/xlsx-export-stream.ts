import { Unzip, UnzipInflate, Zip, ZipDeflate, type UnzipFile } from 'fflate'
import { AppError } from '../errors'
import type { ExportColumns } from './export-columns'
import { addExportStyles, createSheetRewriter, type ExportStyles } from './xlsx-sheet-rewrite'

/**
 * The platform's xlsx export rewritten on its way to the file, in one pass and never whole in
 * memory: each part of the zip is inflated as it arrives, the styles part and the first sheet go
 * through xlsx-sheet-rewrite.ts (date formats and a bold font added; header labels, bold and frozen, date cells), every other part
 * as it is, and the parts are deflated into a new zip chunk by chunk. The platform writes its
 * styles before its sheet; a sheet that came first would keep its dates as text.
 */

type Download = AsyncIterable<Buffer> & { destroy(): void }

/** The styles part is a few kilobytes; one past this is left as it is. */
const MAX_STYLES_BYTES = 1024 * 1024
// A fixed time in the zip's headers: the same answer makes the same file.
const ZIP_TIME = new Date(Date.UTC(2024, 0, 1))
const SHEET = /^xl\/worksheets\/sheet\d+\.xml$/

function unreadable(reason: string): AppError {
  return new AppError('bad_response', `The platform's xlsx file could not be read (${reason}); nothing was saved. Export it again, or as csv.`, { reason })
}

export function withReadableXlsx(body: Download, columns: ExportColumns): Download {
  return {
    async *[Symbol.asyncIterator]() {
      const output: Uint8Array[] = []
      let failure: Error | null = null
      let exportStyles: ExportStyles | null = null
      let sheetSeen = false
      let parts = 0
      const zip = new Zip((error, chunk) => {
        if (error) failure ??= error
        else output.push(chunk)
      })
      const unzip = new Unzip((file: UnzipFile) => {
        parts += 1
        const part = new ZipDeflate(file.name, { level: SHEET.test(file.name) ? 1 : 6 })
        part.mtime = ZIP_TIME
        zip.add(part)
        const decoder = new TextDecoder()
        const encoder = new TextEncoder()
        if (file.name === 'xl/styles.xml') {
          let text = ''
          let bytes = 0
          file.ondata = (error, data, final) => {
            if (error) return void (failure ??= error)
            bytes += data.length
            text += decoder.decode(data, { stream: !final })
            if (!final) return
            const patched = bytes <= MAX_STYLES_BYTES ? addExportStyles(text) : null
            exportStyles = patched?.styles ?? null
            part.push(encoder.encode(patched?.xml ?? text), true)
          }
        } else if (SHEET.test(file.name) && !sheetSeen) {
          sheetSeen = true
          const rewriter = createSheetRewriter(columns, () => exportStyles)
          file.ondata = (error, data, final) => {
            if (error) return void (failure ??= error)
            const text = rewriter.push(decoder.decode(data, { stream: !final })) + (final ? rewriter.end() : '')
            part.push(encoder.encode(text), final)
          }
        } else {
          file.ondata = (error, data, final) => {
            if (error) return void (failure ??= error)
            part.push(data, final)
          }
        }
        file.start()
      })
      unzip.register(UnzipInflate)

      const drain = (): Buffer | null => {
        if (failure !== null) throw unreadable(failure.message)
        if (output.length === 0) return null
        const chunk = Buffer.concat(output)
        output.length = 0
        return chunk
      }
      try {
        for await (const chunk of body) {
          unzip.push(chunk)
          const ready = drain()
          if (ready !== null) yield ready
        }
        unzip.push(new Uint8Array(0), true)
        // Bytes that are no zip at all make no parts; an empty workbook would hide that.
        if (parts === 0) throw unreadable('it is not a zip file')
        zip.end()
      } catch (error) {
        throw error instanceof AppError ? error : unreadable(error instanceof Error ? error.message : String(error))
      }
      const rest = drain()
      if (rest !== null) yield rest
    },
    destroy: () => body.destroy(),
  }
}
