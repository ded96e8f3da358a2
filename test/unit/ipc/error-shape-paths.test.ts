import { describe, expect, it } from 'vitest'
import { publicErrorShape, withoutPaths } from '../../../main/services/error-shape'

describe('no file path in an error that reaches the page', () => {
  it('keeps only the file name of a path quoted in an OS error', () => {
    expect(withoutPaths("ENOENT: no such file or directory, open '/home/ana/.config/AdOps Desk/profiles.json'")).toBe(
      "ENOENT: no such file or directory, open 'profiles.json'",
    )
    expect(withoutPaths('EACCES: permission denied, rename "C:\\\\Users\\\\ana\\\\report.csv.tmp"')).toBe('EACCES: permission denied, rename "report.csv.tmp"')
  })

  it('drops a path detail and scrubs the OS error text', () => {
    const shape = publicErrorShape({
      code: 'storage',
      message: 'Your connections could not be saved.',
      details: {
        path: '/home/ana/.config/AdOps Desk/profiles.json',
        error: "EROFS: read-only file system, open '/home/ana/.config/AdOps Desk/profiles.json.tmp'",
      },
    })
    expect(JSON.stringify(shape)).not.toContain('/home/ana')
    expect(shape.details).toEqual({ error: "EROFS: read-only file system, open 'profiles.json.tmp'" })
  })
})
