import type { PlanRowView } from '@contract'
import { planRowModel, type PlanRowModel } from './planRowModel'

/** Rows per page asked of main: one page's answer decodes in about a millisecond, its texts are made per row when shown. */
export const PLAN_PAGE = 200
/**
 * Pages kept (64 × 200 = 12,800 rows): a 10,000-row plan stays whole, so scrolling back asks main
 * for nothing, while a 100,000-row one keeps the pages used last instead of growing with every
 * page it passed.
 */
export const KEPT_PAGES = 64

interface Page {
  /** The rows as main sent them; each is dropped once its model is made. */
  views: Array<PlanRowView | null>
  models: Array<PlanRowModel | undefined>
}

/**
 * The pages of a plan's rows the page holds, the least recently shown dropped beyond `kept`. A
 * row's texts (its model) are made the first time it is read, not when its page arrives: a page
 * of 200 arrives in a message task between frames, and formatting all of it there made that task
 * and the next frame longer, for rows most of which the list passes over in one step.
 */
export function createPlanPages(kept = KEPT_PAGES) {
  const pages = new Map<number, Page>()

  function store(page: number, views: readonly PlanRowView[]): void {
    pages.delete(page)
    pages.set(page, { views: [...views], models: [] })
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

  /** The row at a position: undefined while its page is not held. */
  function rowAt(position: number): PlanRowModel | null | undefined {
    const entry = pages.get(Math.floor(position / PLAN_PAGE))
    if (entry === undefined) return undefined
    const index = position % PLAN_PAGE
    const made = entry.models[index]
    if (made !== undefined) return made
    const view = entry.views[index]
    if (view === undefined || view === null) return null
    const model = planRowModel(view)
    entry.models[index] = model
    entry.views[index] = null
    return model
  }

  return {
    store,
    touch,
    rowAt,
    has: (page: number) => pages.has(page),
    held: () => [...pages.keys()],
    clear: () => pages.clear(),
  }
}
