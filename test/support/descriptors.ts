import { readdir, readlink } from 'node:fs/promises'
import path from 'node:path'

/** How many descriptors this process holds open on `file` (Linux only: read from /proc/self/fd). */
export async function descriptorsOn(file: string): Promise<number> {
  let count = 0
  for (const descriptor of await readdir('/proc/self/fd')) {
    const target = await readlink(path.join('/proc/self/fd', descriptor)).catch(() => '')
    if (target === file) count += 1
  }
  return count
}
