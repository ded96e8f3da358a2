import { Writable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { createProgressLine, progressFor } from '../../../main/cli/progress'

class Collector extends Writable {
  text = ''
  isTTY = false
  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: () => void): void {
    this.text += chunk.toString()
    callback()
  }
}

describe('the progress line of report export', () => {
  it('updates one line in place on a terminal, at most every 200 ms, and ends it', () => {
    const stream = new Collector()
    let clock = 0
    const line = createProgressLine(stream, { terminal: true, now: () => clock })
    clock = 1_000
    line.update(2 * 1024 * 1024, 10_000)
    clock = 1_100
    line.update(3 * 1024 * 1024, 15_000)
    clock = 2_000
    line.end(4 * 1024 * 1024, 20_000)
    expect(stream.text).toBe('\r2.0 MB  10,000 rows  2.0 MB/s  1.0 s\u001b[K\r4.0 MB  20,000 rows  2.0 MB/s  2.0 s\u001b[K\n')
  })

  it('shows only on a terminal unless asked for; without rows (xlsx) it shows bytes and rate', () => {
    expect(progressFor(new Collector(), false)).toBeNull()
    const terminal = Object.assign(new Collector(), { isTTY: true })
    expect(progressFor(terminal, false)).not.toBeNull()
    const log = new Collector()
    let clock = 0
    const line = createProgressLine(log, { terminal: false, now: () => clock })
    clock = 500
    line.end(512, null)
    expect(log.text).toBe('512 B  1.0 KB/s  0.5 s\n')
  })
})
