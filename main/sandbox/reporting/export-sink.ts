/**
 * Where export bytes go. `write` returns false when the consumer is full; the writers then
 * await `drain()` before producing more, so an export never piles up in memory.
 */
export interface ByteSink {
  write(chunk: Uint8Array): boolean
  drain(): Promise<void>
  /** True once the consumer is gone (client disconnected, download dropped): stop producing. */
  closed(): boolean
}

/** Text is collected up to this many characters, then handed to the sink as one chunk. */
export const CHUNK_CHARACTERS = 64 * 1024

/** After this many bytes without a real wait, yield to the event loop so other requests get served. */
const YIELD_EVERY = 1024 * 1024

/** Writes chunks to a sink with backpressure, yielding now and then; one per export. */
export class ChunkWriter {
  private sinceYield = 0

  constructor(private readonly sink: ByteSink) {}

  closed(): boolean {
    return this.sink.closed()
  }

  async write(chunk: Uint8Array): Promise<void> {
    if (this.sink.closed()) return
    if (!this.sink.write(chunk)) await this.sink.drain()
    // 'drain' often fires from process.nextTick (the socket took the bytes at once), and awaiting
    // resolved promises never leaves the microtask queue: without a real yield now and then an
    // export would block every other request until it is done.
    this.sinceYield += chunk.length
    if (this.sinceYield >= YIELD_EVERY) {
      this.sinceYield = 0
      await new Promise<void>((resolve) => setImmediate(resolve))
    }
  }
}
