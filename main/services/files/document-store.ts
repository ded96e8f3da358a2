import { promises as nodeFs } from 'node:fs'
import path from 'node:path'
import type { z } from 'zod'
import type { Notice } from '@contract'
import { AppError } from '../errors'
import type { Notices } from '../notices'
import { sweepStaleTemps, writeFileAtomic, type AtomicFs } from './atomic'
import { refuseUnreadable } from './checked-write'
import { idOfSafeFileName, readJsonFile, safeFileName, type Versioning } from './json-file'
import { createSerialQueue } from './serial-queue'

/**
 * The one way AdOps Desk keeps a JSON document on disk: read once and cached, changed one
 * at a time in call order, written atomically, and a file that does not parse or match its
 * schema moved aside, reported once, and replaced by the fallback so the app still starts.
 */
export interface DocumentStore<T> {
  /** The cached document; the first call reads the file. */
  read(): Promise<T>
  /** Applies a change to the current document and saves the result; `change` must not mutate what it is given. */
  update(change: (current: T) => T | Promise<T>): Promise<T>
  write(value: T): Promise<void>
  /** Deletes the file; the next read gives the fallback. */
  remove(): Promise<void>
}

/** A file that could not be used, after it was moved aside. */
export interface CorruptFile {
  movedTo: string
  /** Why, as the end of a sentence: "…because {reason}." */
  reason: string
}

export interface DocumentFormat<S extends z.ZodType> {
  /** The document's shape; the store's values are what it outputs. */
  schema: S
  /** Set to also migrate files saved in an older format (see `Versioning`). */
  versioning?: Versioning
  /**
   * When set, a failed write throws a `storage` AppError with this sentence instead of the raw file-system error;
   * a function gets the system's code (`ENOSPC`, `EROFS`…) so the sentence can say what to do about it.
   */
  saveFailed?: string | ((errorCode: string | null) => string)
  now?: () => Date
  /** Passed in so a test can simulate a crash in the middle of a write. */
  fs?: AtomicFs
}

export interface DocumentStoreOptions<S extends z.ZodType> extends DocumentFormat<S> {
  filePath: string
  /** The document when there is no file yet, or after a corrupt one was moved aside; handed out as is, so never mutate what `read` gives. */
  fallback: NoInfer<z.output<S>>
  onCorrupt: (corrupt: CorruptFile) => void
}

export function createDocumentStore<S extends z.ZodType>(options: DocumentStoreOptions<S>): DocumentStore<z.output<S>> {
  type T = z.output<S>
  const { filePath, schema, fallback, onCorrupt, versioning, saveFailed } = options
  const now = options.now ?? (() => new Date())
  const fs = options.fs ?? nodeFs
  const serial = createSerialQueue()
  let loaded: Promise<T> | undefined

  async function readFile(): Promise<T> {
    // The first read is the store's start: temps a killed write left beside its file go now.
    await sweepStaleTemps(path.dirname(filePath), { now, of: (target) => target === path.basename(filePath) })
    const read = await readJsonFile(filePath, schema, now, versioning)
    if (read.state === 'ok') return read.value
    if (read.state === 'corrupt') onCorrupt({ movedTo: read.movedTo, reason: read.reason })
    return fallback
  }

  function load(): Promise<T> {
    if (loaded === undefined) {
      const reading = readFile()
      loaded = reading
      // A read that failed outright (the file could not even be moved aside) is tried again next time, not remembered.
      reading.catch(() => {
        if (loaded === reading) loaded = undefined
      })
    }
    return loaded
  }

  // The cache changes only once the file has: a failed write leaves both as they were.
  async function save(value: T): Promise<void> {
    // Checked before the write: a value the next reader would refuse would have the whole file moved aside there.
    refuseUnreadable(value, schema, 'The change')
    try {
      await writeFileAtomic(filePath, `${JSON.stringify(value, null, 2)}\n`, fs)
    } catch (error) {
      if (saveFailed === undefined) throw error
      const errorCode = (error as NodeJS.ErrnoException).code ?? null
      const message = typeof saveFailed === 'string' ? saveFailed : saveFailed(errorCode)
      throw new AppError('storage', message, { path: filePath, error: (error as Error).message, errorCode })
    }
    loaded = Promise.resolve(value)
  }

  return {
    read: load,
    update: (change) =>
      serial(async () => {
        const next = await change(await load())
        await save(next)
        return next
      }),
    write: (value) => serial(() => save(value)),
    remove: () =>
      serial(async () => {
        await fs.rm(filePath, { force: true })
        loaded = undefined
      }),
  }
}

/** A key of a keyed store: the last part names the file, the ones before it nested folders. */
export type DocumentKey = readonly [string, ...string[]]

/** One document per key in a folder, each with the guarantees of a `DocumentStore`. */
export interface KeyedDocumentStore<T, K extends DocumentKey> {
  read(key: K): Promise<T>
  update(key: K, change: (current: T) => T | Promise<T>): Promise<T>
  write(key: K, value: T): Promise<void>
  /** The keys with a document on disk, once every change asked for before has landed. */
  keys(): Promise<K[]>
  remove(key: K): Promise<void>
  /** Removes every document whose key starts with these parts, or for which the test is true. */
  removeAll(which: readonly string[] | ((key: K) => boolean)): Promise<void>
}

export interface KeyedDocumentStoreOptions<S extends z.ZodType, K extends DocumentKey> extends DocumentFormat<S> {
  folder: string
  fallback: (key: K) => NoInfer<z.output<S>>
  onCorrupt: (corrupt: CorruptFile & { key: K }) => void
}

/** Give `K` as a named tuple, such as `readonly [profileId: string, kind: string]`: it says how the folder is laid out. */
export function createKeyedDocumentStore<S extends z.ZodType, K extends DocumentKey>(
  options: KeyedDocumentStoreOptions<S, K>,
): KeyedDocumentStore<z.output<S>, K> {
  type T = z.output<S>
  const { folder, fallback, onCorrupt, ...format } = options
  const documents = new Map<string, { key: K; store: DocumentStore<T> }>()
  const inFlight = new Set<Promise<unknown>>()
  // Set while a removal runs: work asked for after it waits, so nothing lands in a folder being emptied.
  let barrier: Promise<unknown> = Promise.resolve()

  const partsOf = (key: readonly string[]) => key.map(safeFileName)
  const idOf = (key: K) => partsOf(key).join('/')
  function fileOf(key: K): string {
    const parts = partsOf(key)
    return path.join(folder, ...parts.slice(0, -1), `${parts.at(-1)}.json`)
  }

  function documentOf(key: K): DocumentStore<T> {
    const id = idOf(key)
    let entry = documents.get(id)
    if (entry === undefined) {
      const store = createDocumentStore({ ...format, filePath: fileOf(key), fallback: fallback(key), onCorrupt: (corrupt) => onCorrupt({ ...corrupt, key }) })
      entry = { key, store }
      documents.set(id, entry)
    }
    return entry.store
  }

  /** Work on one key: after any removal asked for before it, and in call order with the key's other work. */
  function perKey<R>(key: K, use: (document: DocumentStore<T>) => Promise<R>): Promise<R> {
    const run = barrier.then(() => use(documentOf(key)))
    inFlight.add(run)
    const settle = () => inFlight.delete(run)
    run.then(settle, settle)
    return run
  }

  /** Work on the whole folder: after everything asked for before it, before anything asked for after. */
  function exclusive<R>(work: () => Promise<R>): Promise<R> {
    const run = Promise.allSettled([barrier, ...inFlight]).then(work)
    barrier = run.catch(() => undefined)
    return run
  }

  const now = format.now ?? (() => new Date())
  /** A document's temp name left by a killed write: `.<safe key part>.json.<hex>.tmp`. */
  const isDocumentName = (name: string) => name.endsWith('.json') && idOfSafeFileName(name.slice(0, -'.json'.length)) !== null

  /** Set after the first walk of the folder, which also sweeps what killed writes left (each document's first read sweeps its own). */
  let swept = false

  async function keysOnDisk(): Promise<K[]> {
    const found: K[] = []
    const sweeping = !swept
    async function walk(current: string, prefix: string[]): Promise<void> {
      if (sweeping) await sweepStaleTemps(current, { now, of: isDocumentName })
      let entries
      try {
        entries = await nodeFs.readdir(current, { withFileTypes: true })
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return
        throw error
      }
      for (const entry of entries) {
        if (entry.isDirectory()) {
          const part = idOfSafeFileName(entry.name)
          if (part !== null) await walk(path.join(current, entry.name), [...prefix, part])
        } else if (entry.isFile() && entry.name.endsWith('.json')) {
          // Temp files and files moved aside do not end in .json, so only documents are found.
          const part = idOfSafeFileName(entry.name.slice(0, -'.json'.length))
          // Read back from names this store made from keys of type K.
          if (part !== null) found.push([...prefix, part] as unknown as K)
        }
      }
    }
    await walk(folder, [])
    swept = true
    const order = (left: K, right: K) => (idOf(left) < idOf(right) ? -1 : idOf(left) > idOf(right) ? 1 : 0)
    return found.sort(order)
  }

  /** Removes folders left empty between a removed file and the store's own folder. */
  async function pruneEmptyFolders(key: K): Promise<void> {
    const parts = partsOf(key).slice(0, -1)
    for (let depth = parts.length; depth > 0; depth -= 1) {
      try {
        await nodeFs.rmdir(path.join(folder, ...parts.slice(0, depth)))
      } catch {
        return // not empty (a file moved aside is kept for the user), or already gone
      }
    }
  }

  function matcher(which: readonly string[] | ((key: K) => boolean)): (key: K) => boolean {
    if (typeof which === 'function') return which
    return (key) => which.length <= key.length && which.every((part, index) => key[index] === part)
  }

  return {
    read: (key) => perKey(key, (document) => document.read()),
    update: (key, change) => perKey(key, (document) => document.update(change)),
    write: (key, value) => perKey(key, (document) => document.write(value)),
    keys: () => exclusive(keysOnDisk),
    remove: (key) => perKey(key, (document) => document.remove()),
    removeAll(which) {
      const matches = matcher(which)
      return exclusive(async () => {
        const candidates = new Map<string, K>()
        for (const key of await keysOnDisk()) candidates.set(idOf(key), key)
        for (const [id, { key }] of documents) candidates.set(id, key)
        for (const [id, key] of candidates) {
          if (!matches(key)) continue
          await documentOf(key).remove()
          documents.delete(id)
          await pruneEmptyFolders(key)
        }
      })
    },
  }
}

/** The usual `onCorrupt`: a notice in the store's own words, with where the file went. */
export function noticeOnCorrupt<C extends CorruptFile>(
  notices: Pick<Notices, 'add'>,
  level: Notice['level'],
  message: (corrupt: C) => string,
): (corrupt: C) => void {
  return (corrupt) => {
    notices.add({ level, message: message(corrupt), details: { movedTo: corrupt.movedTo } })
  }
}
