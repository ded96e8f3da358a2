import { describe, expect, it } from 'vitest'
import { toYaml } from '../../../main/sandbox/reporting/yaml'

describe('toYaml', () => {
  it('writes nested objects and arrays in block style', () => {
    const value = {
      status: 'success',
      mappings: { publisher: { '1': 'Acme News', '2': null } },
      rows: [
        { __time__: '2024-06-01', '1': 12.5, __total__: 30 },
        { __time__: '2024-06-02', '1': 0, __total__: 0, __markers__: [{ marker_id: 101, message: 'Say "hi"\nthen go' }] },
      ],
      empty_list: [],
      empty_map: {},
      flags: [true, false, null],
      nested: [[1, 2], []],
    }
    expect(toYaml(value)).toBe(
      [
        'status: "success"',
        'mappings:',
        '  publisher:',
        '    "1": "Acme News"',
        '    "2": null',
        'rows:',
        '  - "1": 12.5',
        '    __time__: "2024-06-01"',
        '    __total__: 30',
        '  - "1": 0',
        '    __time__: "2024-06-02"',
        '    __total__: 0',
        '    __markers__:',
        '      - marker_id: 101',
        '        message: "Say \\"hi\\"\\nthen go"',
        'empty_list: []',
        'empty_map: {}',
        'flags:',
        '  - true',
        '  - false',
        '  - null',
        'nested:',
        '  - - 1',
        '    - 2',
        '  - []',
        '',
      ].join('\n'),
    )
  })

  it('quotes keys and strings that plain YAML would misread', () => {
    expect(toYaml({ yes: 'no', 'a b': '2024-01-01', 'x\u0002y': 'US' })).toBe('"yes": "no"\n"a b": "2024-01-01"\n"x\\u0002y": "US"\n')
    expect(toYaml({ ratio: Number.NaN, big: Number.POSITIVE_INFINITY })).toBe('ratio: .nan\nbig: .inf\n')
    expect(toYaml({})).toBe('{}\n')
  })
})
