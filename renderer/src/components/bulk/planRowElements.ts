import type { PlanRowModel } from '../../composables/bulk/planRowModel'

/**
 * The plan view's rows as plain elements, made once per slot of the window and refilled in
 * place at every scroll step. The list scrolls 10,000 rows and more a viewport at a time, so
 * every step replaces every row on screen: a Vue component per row re-rendered and diffed ~20
 * nodes each per step (the bulk-scroll bench's script per frame), where this writes a few
 * texts and attributes, and only for rows that changed.
 */

/** A row's height in px: room for three lines of Changes (PlanRows.vue's styles say 56 px too). */
export const PLAN_ROW_HEIGHT = 56

/** One slot of the window: its row element, the parts a fill writes, and what it shows now. */
export interface PlanRowSlot {
  readonly element: HTMLDivElement
  readonly check: HTMLInputElement
  readonly number: Text
  readonly tag: HTMLSpanElement
  readonly tagText: Text
  /** The entity cell: its name and id ("Humongous Electronics (4)"), the whole of it on hover when cut. */
  readonly entity: HTMLDivElement
  readonly id: Text
  readonly detail: HTMLDivElement
  /** The detail cell's "Loading…" while the row's page is on its way, else empty. */
  readonly placeholder: Text
  /** The detail cell's parts, kept and rewritten (hidden when a row has fewer): a new element needs its style computed, a text does not. */
  readonly diffs: Array<{ span: HTMLSpanElement; field: Text; values: Text }>
  readonly problems: Array<{ span: HTMLSpanElement; text: Text }>
  readonly outcome: HTMLSpanElement
  readonly outcomeText: Text
  readonly reason: HTMLSpanElement
  readonly reasonText: Text
  /** The row model drawn (undefined: nothing yet, null: the "Loading…" placeholder). */
  shown: PlanRowModel | null | undefined
  /** The list position drawn (-1: none yet). */
  position: number
}

function cell(row: HTMLElement, className: string): HTMLDivElement {
  const element = document.createElement('div')
  element.setAttribute('role', 'gridcell')
  element.className = className
  row.append(element)
  return element
}

function textIn(parent: HTMLElement): Text {
  const text = document.createTextNode('')
  parent.append(text)
  return text
}

function span(parent: HTMLElement, className: string): HTMLSpanElement {
  const element = document.createElement('span')
  element.className = className
  parent.append(element)
  return element
}

/** A slot's elements: a row with its six cells (check box, number, action, entity, detail, outcome). */
export function createPlanRowSlot(): PlanRowSlot {
  const element = document.createElement('div')
  element.setAttribute('role', 'row')
  const check = document.createElement('input')
  check.type = 'checkbox'
  check.className = 'check'
  check.dataset.test = 'plan-row-check'
  cell(element, 'pick').append(check)
  const number = textIn(cell(element, 'number'))
  const tag = span(cell(element, 'action'), 'tag')
  const entity = cell(element, 'id')
  const id = textIn(entity)
  const detail = cell(element, 'detail')
  const outcomeCell = cell(element, 'outcome')
  outcomeCell.dataset.test = 'plan-row-outcome'
  const outcome = span(outcomeCell, '')
  const reason = span(outcomeCell, 'reason')
  return {
    element,
    check,
    number,
    tag,
    tagText: textIn(tag),
    entity,
    id,
    detail,
    placeholder: textIn(detail),
    diffs: [],
    problems: [],
    outcome,
    outcomeText: textIn(outcome),
    reason,
    reasonText: textIn(reason),
    shown: undefined,
    position: -1,
  }
}

// Each write only when the value changes: the same value written again still costs the browser work.
function write(text: Text, value: string): void {
  if (text.data !== value) text.data = value
}
function setClass(element: HTMLElement, value: string): void {
  if (element.className !== value) element.className = value
}
function show(element: HTMLElement, shown: boolean): void {
  if (element.hidden === shown) element.hidden = !shown
}

/** The detail cell: each change as "field before → after" (the field in bold), then each error. */
function drawDetail(slot: PlanRowSlot, row: PlanRowModel | null): void {
  const { detail, diffs, problems } = slot
  const changes = row?.diffs ?? []
  const errors = row?.problems ?? []
  write(slot.placeholder, row === null ? 'Loading…' : '')
  while (diffs.length < changes.length) {
    const part = document.createElement('span')
    part.className = 'diff'
    const bold = document.createElement('b')
    const field = textIn(bold)
    part.append(bold)
    const values = textIn(part)
    // Changes come before errors.
    detail.insertBefore(part, problems[0]?.span ?? null)
    diffs.push({ span: part, field, values })
  }
  while (problems.length < errors.length) {
    const part = span(detail, 'problem')
    part.dataset.test = 'plan-row-error'
    problems.push({ span: part, text: textIn(part) })
  }
  for (const [index, part] of diffs.entries()) {
    const diff = changes[index]
    // A hidden part is emptied too: its words are not the row's (for a screen reader or a copy).
    show(part.span, diff !== undefined)
    write(part.field, diff?.field ?? '')
    write(part.values, diff === undefined ? '' : ` ${diff.before} → ${diff.after}`)
  }
  for (const [index, part] of problems.entries()) {
    const problem = errors[index]
    show(part.span, problem !== undefined)
    write(part.text, problem ?? '')
  }
  // The whole of it on hover, for a row whose Changes run past the cell's three lines.
  const whole = [...changes.map((diff) => `${diff.field} ${diff.before} → ${diff.after}`), ...errors].join('\n')
  if (detail.title !== whole) detail.title = whole
}

function drawRow(slot: PlanRowSlot, row: PlanRowModel): void {
  const { element, check, outcome } = slot
  setClass(element, 'plan-row')
  element.dataset.test = 'plan-row'
  element.dataset.row = String(row.row)
  element.dataset.action = row.action
  show(check, row.sendable)
  check.setAttribute('aria-label', `Apply row ${row.row}`)
  write(slot.number, String(row.row))
  setClass(slot.tag, `tag tag-${row.action}`)
  write(slot.tagText, row.action)
  write(slot.id, row.entityText)
  if (slot.entity.title !== row.entityText) slot.entity.title = row.entityText
  drawDetail(slot, row)
  // No tag class while hidden: the tag's display would win over the hidden attribute's.
  show(outcome, row.outcome !== null)
  setClass(outcome, row.outcome === null ? '' : `tag tag-${row.outcome.status}`)
  write(slot.outcomeText, row.outcome === null ? '' : row.outcome.status === 'unknown' ? 'outcome unknown' : row.outcome.status)
  const reason = row.outcome?.reason ?? null
  if (reason === null) outcome.removeAttribute('title')
  else outcome.title = reason
  show(slot.reason, reason !== null && reason !== '')
  write(slot.reasonText, reason ?? '')
}

function drawLoading(slot: PlanRowSlot): void {
  const { element } = slot
  setClass(element, 'plan-row loading')
  delete element.dataset.test
  delete element.dataset.row
  delete element.dataset.action
  show(slot.check, false)
  slot.check.removeAttribute('aria-label')
  write(slot.number, '')
  setClass(slot.tag, '')
  write(slot.tagText, '')
  write(slot.id, '')
  slot.entity.removeAttribute('title')
  drawDetail(slot, null)
  show(slot.outcome, false)
  setClass(slot.outcome, '')
  show(slot.reason, false)
}

/**
 * Fills a slot with the row at `position` (null: its page is on its way). The texts are written
 * only when the row drawn changes (a scroll, or its page fetched again with an outcome); the
 * check box's state every time, since it follows the deselection and the apply.
 */
export function fillPlanRowSlot(slot: PlanRowSlot, position: number, row: PlanRowModel | null, checked: boolean, locked: boolean): void {
  if (position !== slot.position) {
    slot.element.setAttribute('aria-rowindex', String(position + 2))
    slot.position = position
  }
  if (row !== slot.shown) {
    if (row === null) drawLoading(slot)
    else drawRow(slot, row)
    slot.shown = row
  }
  if (row === null) return
  if (slot.check.checked !== checked) slot.check.checked = checked
  if (slot.check.disabled !== locked) slot.check.disabled = locked
}

/**
 * Puts `count` slots in `layer` for the rows from `first` on, in list order (the order keyboard
 * and screen reader follow). On a scroll of a few rows the slots that left at one end move to the
 * other and only they are refilled; the rest keep their rows and are not written at all. A step of
 * a third of the window or more (a page down) refills the slots where they are: moving a row
 * element costs it its style and layout again, more than new texts in place.
 */
export function arrangePlanRowSlots(layer: HTMLElement, slots: PlanRowSlot[], first: number, count: number): void {
  const drawnFirst = slots[0]?.position ?? -1
  const shift = first - drawnFirst
  if (drawnFirst !== -1 && shift !== 0 && Math.abs(shift) * 3 < slots.length) {
    const moved = shift > 0 ? slots.splice(0, shift) : slots.splice(slots.length + shift)
    const elements = moved.map((slot) => slot.element)
    if (shift > 0) {
      slots.push(...moved)
      layer.append(...elements)
    } else {
      slots.unshift(...moved)
      layer.prepend(...elements)
    }
  }
  while (slots.length < count) {
    const slot = createPlanRowSlot()
    slots.push(slot)
    layer.append(slot.element)
  }
  while (slots.length > count) slots.pop()?.element.remove()
}
