import type { PlanRowView } from '@contract'
import type { FieldWords } from '../../domain/entities/fieldWords'
import { planRowModel, type PlanRowModel } from './planRowModel'

/** Rows per page asked of main: one page's answer decodes in about a millisecond, its texts are made per row when shown. */
export const PLAN_PAGE = 200
/**
 * Pages kept (64 × 200 = 12,800 rows): a 10,000-row plan stays whole, so scrolling back asks main
 * for nothing, while a 100,000-row one keeps the pages used last instead of growing with every
 * page it passed.
 */
export const KEPT_PAGES = 64

/** Rows whose texts an idle moment makes at a time, before it asks whether there is time for more. */
const SLICE = 25

interface Page {
  /** The rows as main sent them; each is dropped once its model is made. */
  views: Array<PlanRowView | null>
  models: Array<PlanRowModel | undefined>
  /** Where `prepare` goes on in this page, and how many rows still have no model. */
  next: number
  left: number
}

/**
 * The pages of a plan's rows the page holds, the least recently shown dropped beyond `kept`. A
 * row's texts (its model) are made in idle moments after its page arrives (`prepare`), or when it
 * is read first if none came: a page of 200 arrives in a message task between frames, and
 * formatting all of it there made that task 3-6 ms (traced), for rows the list has not reached.
 */
export function createPlanPages(kept = KEPT_PAGES, words?: () => FieldWords) {
  const pages = new Map<number, Page>()

  function store(page: number, views: readonly PlanRowView[]): void {
    pages.delete(page)
    pages.set(page, { views: [...views], models: [], next: 0, left: views.length })
  }

  function make(entry: Page, index: number): PlanRowModel | null {
    const view = entry.views[index]
    if (view === undefined || view === null) return entry.models[index] ?? null
    const model = planRowModel(view, words?.())
    entry.models[index] = model
    entry.views[index] = null
    entry.left--
    return model
  }

  /**
   * Makes the texts of rows not shown yet, a slice at a time while `more()` says there is time
   * (one slice at least, so a page never idle still gets on); true when some are left.
   */
  function prepare(more: () => boolean): boolean {
    let first = true
    for (const entry of pages.values()) {
      while (entry.left > 0 && entry.next < entry.views.length) {
        if (!first && !more()) return true
        first = false
        const until = Math.min(entry.views.length, entry.next + SLICE)
        for (; entry.next < until; entry.next++) make(entry, entry.next)
      }
    }
    return false
  }

  /** Marks pages as just shown (the map's order is the order of use) and drops the oldest beyond the bound, never one of these. */
  function touch(first: number, last: number): void {
    for (let page = first; page <= last; page++) {
      const entry = pages.get(page)
      if (entry === undefined) continue
      pages.delete(page)
      pages.set(page, entry)
    }
    for (const page of pages.keys()) {
      if (pages.size <= kept) break
      if (page < first || page > last) pages.delete(page)
    }
  }

  /** Drops every page outside `first` to `last`: their rows are out of date (an apply moved on), and are asked for again when shown. */
  function keepOnly(first: number, last: number): void {
    for (const page of pages.keys()) if (page < first || page > last) pages.delete(page)
  }

  /** The row at a position: undefined while its page is not held. */
  function rowAt(position: number): PlanRowModel | null | undefined {
    const entry = pages.get(Math.floor(position / PLAN_PAGE))
    if (entry === undefined) return undefined
    return make(entry, position % PLAN_PAGE)
  }

  return {
    store,
    touch,
    keepOnly,
    rowAt,
    prepare,
    /** Rows held whose texts are not made yet. */
    waiting: () => [...pages.values()].reduce((sum, entry) => sum + entry.left, 0),
    has: (page: number) => pages.has(page),
    held: () => [...pages.keys()],
    clear: () => pages.clear(),
  }
}
