/**
 * A value made on its first use and kept. For what is costly to make at a module's load and not
 * always needed: an `Intl` formatter or collator loads the platform's locale data (5 to 11 ms
 * for the first one in a process), which every command-line start would pay at import time.
 */
export function lazy<T>(make: () => T): () => T {
  let made: { value: T } | null = null
  return () => (made ??= { value: make() }).value
}
