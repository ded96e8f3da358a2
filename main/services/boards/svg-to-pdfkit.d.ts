/** svg-to-pdfkit ships no types: the one call board-file-render.ts makes. */
declare module 'svg-to-pdfkit' {
  interface SvgToPdfOptions {
    width?: number
    height?: number
    preserveAspectRatio?: string
    assumePt?: boolean
    /** Answers the name of a font registered on the document (or a file path) for an SVG font-family. */
    fontCallback?: (family: string, bold: boolean, italic: boolean) => string
    warningCallback?: (message: string) => void
  }
  function SVGtoPDF(doc: PDFKit.PDFDocument, svg: string, x: number, y: number, options?: SvgToPdfOptions): void
  export default SVGtoPDF
}
