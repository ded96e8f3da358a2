import { StringDecoder } from 'node:string_decoder'

/**
 * The first records of a CSV stream (RFC 4180: quoted fields may hold commas, quotes and line
 * breaks; CRLF or LF ends a record). Stops reading as soon as it has them: leaving the loop
 * destroys the stream, which closes the download, so a million-row export costs one chunk.
 */
export async function readCsvHead(source: AsyncIterable<Buffer | string>, maxRecords: number): Promise<string[][]> {
  const records: string[][] = []
  if (maxRecords <= 0) return records
  const decoder = new StringDecoder('utf8')
  let record: string[] = []
  let field = ''
  let quoted = false
  /** The last character was the closing quote of a quoted field, or a doubled quote's first half. */
  let quoteSeen = false
  let atStart = true
  let fieldStarted = false

  const endField = (): void => {
    record.push(field)
    field = ''
    fieldStarted = false
  }
  const endRecord = (): boolean => {
    endField()
    // A blank line is not a record.
    if (!(record.length === 1 && record[0] === '')) records.push(record)
    record = []
    return records.length >= maxRecords
  }

  const feed = (text: string): boolean => {
    for (let index = 0; index < text.length; index++) {
      let character = text[index] as string
      if (atStart) {
        atStart = false
        if (character === '\uFEFF') continue
      }
      if (quoted) {
        if (quoteSeen) {
          quoteSeen = false
          if (character === '"') {
            field += '"'
            continue
          }
          quoted = false
          // fall through: the character after a closing quote is read as unquoted
        } else if (character === '"') {
          quoteSeen = true
          continue
        } else {
          field += character
          continue
        }
      }
      if (character === '"' && !fieldStarted) {
        quoted = true
        fieldStarted = true
        continue
      }
      if (character === ',') {
        endField()
        continue
      }
      if (character === '\r') {
        if (text[index + 1] === '\n') index++
        character = '\n'
      }
      if (character === '\n') {
        if (endRecord()) return true
        continue
      }
      field += character
      fieldStarted = true
    }
    return false
  }

  for await (const chunk of source) {
    if (feed(typeof chunk === 'string' ? chunk : decoder.write(chunk))) return records
  }
  feed(decoder.end())
  if (quoted && quoteSeen) quoted = false
  if (field !== '' || record.length > 0) endRecord()
  return records
}
