import { deflateSync } from 'node:zlib'

/** CRC-32 as PNG chunks use it (the zlib polynomial). */
function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff
  for (const byte of bytes) {
    crc ^= byte
    for (let bit = 0; bit < 8; bit += 1) crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1
  }
  return (crc ^ 0xffffffff) >>> 0
}

function chunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body))
  return Buffer.concat([length, body, crc])
}

/**
 * A real PNG (RGBA, 8 bits) of the given size, filled with noise when `noisy` so it does not
 * compress: a way to make an image of a chosen weight for the size limits.
 */
export function makePng(width: number, height: number, noisy = false): Buffer {
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header[8] = 8
  header[9] = 6
  const row = width * 4 + 1
  const pixels = Buffer.alloc(row * height)
  let seed = 12345
  for (let index = 0; index < pixels.length; index += 1) {
    if (index % row === 0) continue // filter byte: none
    seed = (seed * 1103515245 + 12345) >>> 0
    pixels[index] = noisy ? seed >>> 24 : 200
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels, { level: noisy ? 0 : 6 })),
    chunk('IEND', Buffer.alloc(0)),
  ])
}
