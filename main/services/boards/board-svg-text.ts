/**
 * Text on a board's page: escaped for SVG, cut to fit a width, and set in a family every
 * drawer finds (resvg loads the system's fonts; the PDF maps it through svg-to-pdfkit's font callback).
 */
export const PAGE_FONT = "'DejaVu Sans', 'Liberation Sans', Arial, Helvetica, sans-serif"

/** The light theme's colours: a board file is for printing. */
export const PRINT_COLORS = {
  text: '#1f2430',
  muted: '#5d6474',
  frame: '#d5d9e3',
  paper: '#ffffff',
  tileBack: '#fbfcfe',
  up: '#2e8b57',
  down: '#c0392b',
} as const

export function escapeSvg(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
}

/**
 * The text cut to what fits `width` at `size` px, with an ellipsis: a rough average glyph width,
 * since neither drawer measures before laying out. Cut by code points, so an emoji is never halved.
 */
export function fitText(text: string, width: number, size: number): string {
  const room = Math.max(1, Math.floor(width / (size * 0.56)))
  const points = [...text]
  return points.length <= room ? text : `${points.slice(0, Math.max(1, room - 1)).join('')}…`
}

export interface TextStyle {
  size: number
  weight?: 'normal' | 'bold'
  color?: string
  anchor?: 'start' | 'middle' | 'end'
}

/** One line of text at (x, y) (y is the baseline), cut to `width`. */
export function svgText(text: string, x: number, y: number, width: number, style: TextStyle): string {
  const anchor = style.anchor ?? 'start'
  return (
    `<text x="${round(x)}" y="${round(y)}" font-family="${PAGE_FONT}" font-size="${style.size}" font-weight="${style.weight ?? 'normal'}"` +
    ` fill="${style.color ?? PRINT_COLORS.text}" text-anchor="${anchor}">${escapeSvg(fitText(text, width, style.size))}</text>`
  )
}

export const round = (value: number): string => String(Math.round(value * 100) / 100)
