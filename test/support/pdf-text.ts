import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs'

/** A PDF read back as a reader would: its page count, every text item of every page (joined by page, spaces collapsed) and its title. */
export async function pdfText(bytes: Uint8Array): Promise<{ pages: number; text: string; title: unknown }> {
  const doc = await getDocument({ data: bytes.slice(), useSystemFonts: false, isEvalSupported: false }).promise
  try {
    const pages: string[] = []
    for (let number = 1; number <= doc.numPages; number++) {
      const content = await (await doc.getPage(number)).getTextContent()
      pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '))
    }
    const meta = await doc.getMetadata()
    return { pages: doc.numPages, text: pages.join('\n'), title: (meta.info as { Title?: unknown }).Title }
  } finally {
    await doc.destroy()
  }
}
