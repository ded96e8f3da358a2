import { existsSync } from 'node:fs'
import { Resvg } from '@resvg/resvg-js'
import PDFDocument from 'pdfkit'
import SVGtoPDF from 'svg-to-pdfkit'
import type { BoardPage } from './board-page-svg'

/**
 * A board's SVG page made into its file: PNG through resvg at 2× (the system's fonts), PDF through
 * pdfkit and svg-to-pdfkit (vector, its text selectable), one landscape page sized to the board.
 * Text is set in a TrueType font of the system that covers more than Latin when there is one
 * (DejaVu, Liberation, Arial…); without one, PDFKit's Helvetica, with what it cannot encode replaced.
 */

/** Fonts looked for, regular then bold, first found wins. */
const FONT_FILES: ReadonlyArray<readonly [string, string]> = [
  ['/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf', '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf'],
  ['/usr/share/fonts/dejavu/DejaVuSans.ttf', '/usr/share/fonts/dejavu/DejaVuSans-Bold.ttf'],
  ['/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf', '/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf'],
  ['/usr/share/fonts/liberation-sans/LiberationSans-Regular.ttf', '/usr/share/fonts/liberation-sans/LiberationSans-Bold.ttf'],
  ['/System/Library/Fonts/Supplemental/Arial Unicode.ttf', '/System/Library/Fonts/Supplemental/Arial Bold.ttf'],
  ['/System/Library/Fonts/Supplemental/Arial.ttf', '/System/Library/Fonts/Supplemental/Arial Bold.ttf'],
  ['C:\\Windows\\Fonts\\arial.ttf', 'C:\\Windows\\Fonts\\arialbd.ttf'],
]

export interface PageFonts {
  regular: string
  bold: string
}

/** The system's font files for the PDF, or null (PDFKit's own Helvetica then). */
export function findPageFonts(exists: (file: string) => boolean = existsSync): PageFonts | null {
  for (const [regular, bold] of FONT_FILES) if (exists(regular)) return { regular, bold: exists(bold) ? bold : regular }
  return null
}

export function pagePng(page: BoardPage): Uint8Array {
  const resvg = new Resvg(page.svg, {
    fitTo: { mode: 'zoom', value: 2 },
    background: '#ffffff',
    font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans' },
  })
  return new Uint8Array(resvg.render().asPng())
}

/** Helvetica encodes WinAnsi only: anything else (CJK, emoji) becomes "?" instead of garbage. */
const beyondWinAnsi = /[^\u0009\u000a\u000d\u0020-\u007e\u00a0-\u00ff\u2013\u2014\u2018\u2019\u201c\u201d\u2022\u2026\u20ac]/gu

export async function pagePdf(page: BoardPage, meta: { title: string; madeAt: Date }, fonts: PageFonts | null = findPageFonts()): Promise<Uint8Array> {
  const doc = new PDFDocument({
    size: [page.width * 0.75, page.height * 0.75],
    margin: 0,
    autoFirstPage: true,
    info: { Title: meta.title, Creator: 'AdOps Desk', Producer: 'AdOps Desk', CreationDate: meta.madeAt },
  })
  const chunks: Buffer[] = []
  doc.on('data', (chunk: Buffer) => chunks.push(chunk))
  const ended = new Promise<void>((resolve, reject) => {
    doc.on('end', () => resolve())
    doc.on('error', reject)
  })
  if (fonts !== null) {
    doc.registerFont('Page', fonts.regular)
    doc.registerFont('Page-Bold', fonts.bold)
  }
  const svg = fonts === null ? page.svg.replace(beyondWinAnsi, '?') : page.svg
  SVGtoPDF(doc, svg, 0, 0, {
    width: page.width * 0.75,
    height: page.height * 0.75,
    assumePt: false,
    fontCallback: (_family, bold) => (fonts === null ? (bold ? 'Helvetica-Bold' : 'Helvetica') : bold ? 'Page-Bold' : 'Page'),
    warningCallback: () => undefined,
  })
  doc.end()
  await ended
  return new Uint8Array(Buffer.concat(chunks))
}
