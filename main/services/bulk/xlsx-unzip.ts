import { Inflate, strFromU8 } from 'fflate'
import { formatBytes } from '../../../common/format'
import { NOT_A_WORKBOOK, XlsxProblem } from './xlsx-problem'

/**
 * The parts of an XLSX workbook (a zip) that the reader needs, each inflated as a stream with a
 * running count of its bytes: the count, never the size the zip's headers claim, decides, so a
 * part whose headers lie (a deflate bomb: megabytes on disk, gigabytes inflated) stops as soon as
 * it passes its bound. The compressed input is fed a slice at a time, each small enough that it
 * cannot take the output more than an eighth of the bound (at least 1 MB) past it: deflate expands
 * at most 1032 to 1. (Slices stay large, 32-64 KB at the default bound: each push of fflate's
 * Inflate costs a fresh buffer, and a slice of a few hundred bytes made a large part crawl.) The directory
 * is read from the zip's end (as fflate's unzipSync reads it), its entries counted and every
 * offset checked against the file.
 */

export interface UnzipBounds {
  /** What one part may inflate to. */
  maxPartBytes: number
  /** How many entries the zip's directory may list. */
  maxEntries: number
}

/** Thrown when a part inflates past its bound; how far it got, for the tests and the sentence. */
export class PartTooLarge extends XlsxProblem {
  constructor(
    message: string,
    readonly inflatedBytes: number,
  ) {
    super(message)
  }
}

const DEFLATE_RATIO = 1032
const MAX_SLICE = 64 * 1024
const MIN_OVERSHOOT = 1024 * 1024
const LOCAL_SIGNATURE = 0x04034b50
const CENTRAL_SIGNATURE = 0x02014b50
const END_SIGNATURE = 0x06054b50
const ZIP64_LOCATOR_SIGNATURE = 0x07064b50
const ZIP64_END_SIGNATURE = 0x06064b50
const ZIP64_EXTRA = 0x0001
const UNKNOWN32 = 0xffffffff

interface Entry {
  name: string
  method: number
  compressedSize: number
  declaredSize: number
  localOffset: number
}

function reader(bytes: Uint8Array): { u16(at: number): number; u32(at: number): number; u64(at: number): number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const inside = (at: number, length: number): void => {
    if (at < 0 || at + length > bytes.length) throw new XlsxProblem(NOT_A_WORKBOOK)
  }
  return {
    u16: (at) => (inside(at, 2), view.getUint16(at, true)),
    u32: (at) => (inside(at, 4), view.getUint32(at, true)),
    u64: (at) => (inside(at, 8), view.getUint32(at, true) + view.getUint32(at + 4, true) * 2 ** 32),
  }
}

/** The entries the zip's central directory lists, within `maxEntries`. */
function directory(bytes: Uint8Array, maxEntries: number): Entry[] {
  const { u16, u32, u64 } = reader(bytes)
  let end = bytes.length - 22
  // The end record sits in the last 22 bytes plus at most a 65,535-byte comment.
  while (end >= 0 && u32(end) !== END_SIGNATURE) {
    if (end === 0 || bytes.length - end > 22 + 65_535) throw new XlsxProblem(NOT_A_WORKBOOK)
    end--
  }
  if (end < 0) throw new XlsxProblem(NOT_A_WORKBOOK)
  let count = u16(end + 10)
  let offset = u32(end + 16)
  if (end >= 20 && u32(end - 20) === ZIP64_LOCATOR_SIGNATURE) {
    const record = u64(end - 12)
    if (u32(record) === ZIP64_END_SIGNATURE) {
      count = u64(record + 32)
      offset = u64(record + 48)
    }
  }
  if (count > maxEntries)
    throw new XlsxProblem(
      `The workbook holds more than ${maxEntries.toLocaleString('en-US')} parts, more than a sheet of data needs; export it as CSV and import that.`,
    )
  const entries: Entry[] = []
  for (let index = 0; index < count; index++) {
    if (u32(offset) !== CENTRAL_SIGNATURE) throw new XlsxProblem(NOT_A_WORKBOOK)
    const nameLength = u16(offset + 28)
    const extraLength = u16(offset + 30)
    const nameStart = offset + 46
    if (nameStart + nameLength > bytes.length) throw new XlsxProblem(NOT_A_WORKBOOK)
    const entry: Entry = {
      name: strFromU8(bytes.subarray(nameStart, nameStart + nameLength), (u16(offset + 8) & 0x800) === 0),
      method: u16(offset + 10),
      compressedSize: u32(offset + 20),
      declaredSize: u32(offset + 24),
      localOffset: u32(offset + 42),
    }
    readZip64Extra(entry, nameStart + nameLength, extraLength, { u16, u64 })
    entries.push(entry)
    offset = nameStart + nameLength + extraLength + u16(offset + 32)
  }
  return entries
}

/** Sizes and offsets too large for 32 bits are in the entry's zip64 extra field, in this order. */
function readZip64Extra(entry: Entry, start: number, length: number, read: { u16(at: number): number; u64(at: number): number }): void {
  for (let at = start; at + 4 <= start + length; at += 4 + read.u16(at + 2)) {
    if (read.u16(at) !== ZIP64_EXTRA) continue
    let field = at + 4
    for (const key of ['declaredSize', 'compressedSize', 'localOffset'] as const) {
      if (entry[key] !== UNKNOWN32) continue
      entry[key] = read.u64(field)
      field += 8
    }
    return
  }
}

function tooLarge(name: string, bound: number, declaredSize: number, inflatedBytes: number): PartTooLarge {
  if (declaredSize > bound)
    return new PartTooLarge(`The workbook's ${name} unzips to more than ${formatBytes(bound)}; save a smaller sheet, or export it as CSV.`, inflatedBytes)
  return new PartTooLarge(
    `The workbook's ${name} unzips to more than ${formatBytes(bound)} although its header says ${formatBytes(declaredSize)}: it looks like a zip bomb, so it was not read; save the workbook again from the spreadsheet, or export it as CSV.`,
    inflatedBytes,
  )
}

function inflateBounded(compressed: Uint8Array, entry: Entry, bound: number): Uint8Array {
  const pieces: Uint8Array[] = []
  let inflated = 0
  const inflater = new Inflate((piece) => {
    inflated += piece.length
    if (inflated > bound) throw tooLarge(entry.name, bound, entry.declaredSize, inflated)
    pieces.push(piece)
  })
  const overshoot = Math.max(MIN_OVERSHOOT, bound / 8)
  let at = 0
  do {
    const slice = Math.min(MAX_SLICE, Math.floor(Math.max(bound - inflated, overshoot) / DEFLATE_RATIO))
    const next = Math.min(compressed.length, at + slice)
    try {
      inflater.push(compressed.subarray(at, next), next === compressed.length)
    } catch (error) {
      if (error instanceof XlsxProblem) throw error
      throw new XlsxProblem(NOT_A_WORKBOOK)
    }
    at = next
  } while (at < compressed.length)
  const whole = new Uint8Array(inflated)
  let offset = 0
  for (const piece of pieces) {
    whole.set(piece, offset)
    offset += piece.length
  }
  return whole
}

/** The bytes of one entry, stored or deflated, within the bound. */
function partBytes(bytes: Uint8Array, entry: Entry, bound: number): Uint8Array {
  const { u16, u32 } = reader(bytes)
  if (u32(entry.localOffset) !== LOCAL_SIGNATURE) throw new XlsxProblem(NOT_A_WORKBOOK)
  const start = entry.localOffset + 30 + u16(entry.localOffset + 26) + u16(entry.localOffset + 28)
  const end = start + entry.compressedSize
  if (end > bytes.length) throw new XlsxProblem(NOT_A_WORKBOOK)
  // A size the header states past the bound is refused before anything is inflated; one within it is not believed.
  if (entry.declaredSize > bound) throw tooLarge(entry.name, bound, entry.declaredSize, 0)
  const compressed = bytes.subarray(start, end)
  if (entry.method === 0) {
    if (compressed.length > bound) throw tooLarge(entry.name, bound, entry.declaredSize, compressed.length)
    return compressed
  }
  if (entry.method !== 8) throw new XlsxProblem(NOT_A_WORKBOOK)
  return inflateBounded(compressed, entry, bound)
}

/** The named parts present in the workbook, as text (a name listed twice: the last one, as fflate reads it). */
export function unzipParts(bytes: Uint8Array, names: ReadonlySet<string>, bounds: UnzipBounds): Record<string, string> {
  const wanted = new Map<string, Entry>()
  for (const entry of directory(bytes, bounds.maxEntries)) if (names.has(entry.name)) wanted.set(entry.name, entry)
  const parts: Record<string, string> = {}
  for (const [name, entry] of wanted) parts[name] = strFromU8(partBytes(bytes, entry, bounds.maxPartBytes))
  return parts
}
