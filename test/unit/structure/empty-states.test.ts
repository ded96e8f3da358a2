import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

/**
 * Every empty state looks the same (issue 39, item 15): one component, common/EmptyState.vue,
 * with one quiet icon and one layout. Naive UI's NEmpty (an inbox with a cross, which reads as an
 * error) is used by EmptyState alone, and every element the templates mark as an empty state
 * (`data-test="…-empty"`) is an EmptyState, not a paragraph styled on its own.
 */
const rendererRoot = path.join(import.meta.dirname, '..', '..', '..', 'renderer', 'src')
const EMPTY_STATE = path.join('components', 'common', 'EmptyState.vue')

/**
 * Marked "-empty" but a line inside something else, not a state of a screen, each with why.
 */
const INLINE_HINTS: Record<string, string> = {
  'palette-empty': "the command palette's one line under its search box, said as a status",
  'board-empty': "a board with no tile yet: the hint sits where the tiles go, beside the board's own toolbar",
  'tile-empty': "one tile's body on a board, a few words in a small card",
}

function vueFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const full = path.join(folder, name)
    if (statSync(full).isDirectory()) return vueFiles(full)
    return name.endsWith('.vue') ? [full] : []
  })
}
const files = vueFiles(rendererRoot).map((file) => ({ name: path.relative(rendererRoot, file), text: readFileSync(file, 'utf8') }))

/** The tag that holds an attribute at `index`: the last `<Name` before it. */
function tagAround(text: string, index: number): string {
  const start = text.lastIndexOf('<', index)
  return /^<([A-Za-z][\w-]*)/.exec(text.slice(start))?.[1] ?? ''
}

describe('empty states', () => {
  it('NEmpty is used only inside EmptyState.vue', () => {
    const users = files.filter((file) => file.name !== EMPTY_STATE && /\bNEmpty\b/.test(file.text)).map((file) => file.name)
    expect(users).toEqual([])
  })

  it('every element marked as an empty state is an EmptyState', () => {
    const marked = files.flatMap((file) =>
      [...file.text.matchAll(/data-test="([\w-]+-empty)"/g)].map((match) => ({
        file: file.name,
        test: match[1] ?? '',
        tag: tagAround(file.text, match.index),
      })),
    )
    expect(marked.length).toBeGreaterThan(8)
    const others = marked
      .filter((mark) => mark.tag !== 'EmptyState' && !(mark.test in INLINE_HINTS))
      .map((mark) => `${mark.file}: <${mark.tag} data-test="${mark.test}">`)
    expect(others).toEqual([])
  })

  it('the sections that had their own empty look use EmptyState', () => {
    const expected = [
      'components/alerts/AlertList.vue',
      'views/AlertsView.vue',
      'components/schedules/ScheduleList.vue',
      'components/schedules/RunLedger.vue',
      'components/boards/BoardList.vue',
      'views/BoardsView.vue',
      'components/exports/ExportJobsPanel.vue',
      'components/bulk/ChangeLogList.vue',
      'views/ChangesView.vue',
      'components/entities/EntityTable.vue',
      'views/EntitiesView.vue',
      'views/AnalysisView.vue',
      'views/ConnectionsView.vue',
    ]
    const missing = expected.filter((name) => !/<EmptyState\b/.test(files.find((file) => file.name === name)?.text ?? ''))
    expect(missing).toEqual([])
  })
})
