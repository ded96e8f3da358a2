import { describe, expect, it } from 'vitest'
import { csvField, csvRow, writeCsv } from '../../../main/cli/csv'

describe('csv fields', () => {
  it.each([
    ['plain', 'plain'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    [' padded', '" padded"'],
    [42, '42'],
    [true, 'true'],
    [null, ''],
    [undefined, ''],
    [['a.example', 'b.example'], '"[""a.example"",""b.example""]"'],
  ])('%j → %s', (value, expected) => {
    expect(csvField(value)).toBe(expected)
  })

  it.each([
    ['=1+1', `"'=1+1"`],
    ['=HYPERLINK("https://evil.example","x")', `"'=HYPERLINK(""https://evil.example"",""x"")"`],
    ['+41 22 000', `"'+41 22 000"`],
    ['-5', `"'-5"`],
    ['@SUM(A1)', `"'@SUM(A1)"`],
    ['\tcmd', `"'\tcmd"`],
    ['\rcmd', `"'\rcmd"`],
  ])('neutralises %j, which a spreadsheet would run as a formula, to %s', (value, expected) => {
    expect(csvField(value)).toBe(expected)
  })

  it.each([
    ["Acme;=cmd|' /C calc'!A0", `"'Acme;=cmd|' /C calc'!A0"`],
    ['Acme;+1', `"'Acme;+1"`],
    ['Acme;-1', `"'Acme;-1"`],
    ['Acme;@SUM(A1)', `"'Acme;@SUM(A1)"`],
    ['Acme,=1+1', `"'Acme,=1+1"`],
    ['Acme\t=1+1', `"'Acme\t=1+1"`],
    ['two\n=lines', `"'two\n=lines"`],
    ['two\r\n@lines', `"'two\r\n@lines"`],
  ])('neutralises %j, a formula after a separator a spreadsheet may split on, to %s', (value, expected) => {
    expect(csvField(value)).toBe(expected)
  })

  it('quotes text holding ; or a tab so a spreadsheet splitting on them keeps it one cell', () => {
    expect(csvField('Acme; Ltd')).toBe('"Acme; Ltd"')
    expect(csvField('a\tb')).toBe('"a\tb"')
  })

  it('keeps numbers as numbers, negative ones too, and leaves safe text alone', () => {
    expect(csvField(-12.5)).toBe('-12.5')
    expect(csvRow(['Acme', -12.5, 'a-b', 'x=y', 'Smith, Jones'])).toBe('Acme,-12.5,a-b,x=y,"Smith, Jones"\r\n')
    expect(csvField(-5)).toBe('-5')
    expect(csvField(-0.25)).toBe('-0.25')
    expect(csvField(Number.NEGATIVE_INFINITY)).toBe(`"'-Infinity"`)
    expect(csvField('a=b')).toBe('a=b')
    expect(csvField(' =1+1')).toBe(`" =1+1"`)
  })

  it('rows end with CRLF', () => {
    expect(csvRow(['a', 1])).toBe('a,1\r\n')
  })
})

describe('writeCsv', () => {
  it('writes a header of the union of fields in order of first appearance, across pages', async () => {
    async function* pages() {
      yield [{ id: 1, name: 'One' }]
      yield [
        { id: 2, url: 'https://two.example', name: 'Two, Ltd' },
        { id: 3, extra: { deep: true } },
      ]
    }
    let out = ''
    const rows = await writeCsv(pages(), async (text) => {
      out += text
    })
    expect(rows).toBe(3)
    expect(out).toBe('id,name,url,extra\r\n1,One,,\r\n2,"Two, Ltd",https://two.example,\r\n3,,,"{""deep"":true}"\r\n')
  })

  it('neutralises formula-like field names in the header as well as values', async () => {
    async function* pages() {
      yield [{ id: 1, '=cmd': '@evil', '-balance': -5 }]
    }
    let out = ''
    await writeCsv(pages(), async (text) => {
      out += text
    })
    expect(out).toBe(`id,"'=cmd","'-balance"\r\n1,"'@evil",-5\r\n`)
  })

  it('writes nothing for no entities', async () => {
    async function* none() {
      yield []
    }
    let out = ''
    await writeCsv(none(), async (text) => {
      out += text
    })
    expect(out).toBe('')
  })
})
