/**
 * Names for Naive UI's controls, given once for the whole app (docs/architecture.md, "The page
 * for a screen reader"). Naive UI's select is a focusable div with no role, whose only name is
 * its spinner's (`role=img aria-label="loading"`, in the page even when it is not spinning); its
 * close icons are all called "close"; the steppers of a number field and its icons have no name.
 * Rather than edit every select (some fifty, on screens others change too), this reads the page
 * as Vue draws it and gives each control its role and name:
 *
 * - a select becomes a `combobox` (its filter input too), named by the name given to the NSelect
 *   (`aria-label`/`aria-labelledby` on it, or on its `input-props`), else by the label of the field
 *   it alone sits in (`data-label-id` of BuilderField, Naive UI's form item label); it says whether
 *   its menu is open (`aria-expanded`) and when it is loading (`aria-busy`);
 * - a tag's remover says "Remove <the tag's text>", a dialog's or drawer's close says "Close";
 * - a number field's steppers say "Decrease" and "Increase" (with the field's name when it has one);
 * - icons with no name of their own (Naive UI's suffix, spinner in a select, check marks, svg
 *   icons) are hidden from the reader: what they show is said by the control around them.
 *
 * Vue never writes these attributes back (Naive UI sets none of them, or sets them once), so each
 * is set only when it differs, and the observer below ignores the attributes it writes.
 */

const SELECTION = '.n-base-selection'
const DECORATIVE_ICONS = '.n-icon, .n-base-icon, .n-base-suffix, .n-checkbox-box svg, svg'

/** Sets an attribute only when it differs: writing the same value would wake the observer again. */
function set(element: Element, name: string, value: string): void {
  if (element.getAttribute(name) !== value) element.setAttribute(name, value)
}

const NAMING = ['aria-label', 'aria-labelledby'] as const

/** The name a select was given on its NSelect or its input, or by the field it alone sits in. */
function selectName(selection: Element): { attribute: (typeof NAMING)[number]; value: string } | null {
  const root = selection.closest('.n-select')
  const input = selection.querySelector('input')
  for (const attribute of NAMING) {
    const value = root?.getAttribute(`data-select-${attribute}`)
    if (value) return { attribute, value }
  }
  for (const attribute of NAMING) {
    const value = input?.getAttribute(attribute)
    if (value) return { attribute, value }
  }
  const id = input?.id
  const label = id ? selection.ownerDocument.querySelector(`label[for="${CSS.escape(id)}"]`) : null
  if (label) {
    if (!label.id) label.id = `${id}-label`
    return { attribute: 'aria-labelledby', value: label.id }
  }
  const field = selection.closest('[data-label-id], .n-form-item')
  // A field holding several selects (a filter's key, match and values) names none of them: each needs its own.
  if (!field || field.querySelectorAll(SELECTION).length !== 1) return null
  const labelId = field.getAttribute('data-label-id')
  if (labelId) return { attribute: 'aria-labelledby', value: labelId }
  const formLabel = formLabelId(field)
  return formLabel ? { attribute: 'aria-labelledby', value: formLabel } : null
}

let formLabels = 0
/** The id of a Naive UI form item's label text (without its required asterisk), given one if it has none. */
function formLabelId(item: Element): string | null {
  const label = item.querySelector('.n-form-item-label__text') ?? item.querySelector('.n-form-item-label')
  if (!label) return null
  if (!label.id) label.id = `form-label-${++formLabels}`
  return label.id
}

const TEXT_FIELDS = '.n-input input, .n-input textarea'
/**
 * A form item's one text field is named by its label: Naive UI draws the label as a div, so
 * the field was named by its placeholder ("https://auth.example.com").
 */
function nameFormField(item: Element): void {
  const fields = item.querySelectorAll(TEXT_FIELDS)
  const field = fields[0]
  if (fields.length !== 1 || !field || item.querySelector(SELECTION)) return
  if (NAMING.some((attribute) => field.hasAttribute(attribute))) return
  if (field.id && item.ownerDocument.querySelector(`label[for="${CSS.escape(field.id)}"]`)) return
  const label = formLabelId(item)
  if (label) set(field, 'aria-labelledby', label)
}

function nameSelect(selection: Element): void {
  const focusable = selection.querySelector(':scope > .n-base-selection-label, :scope > .n-base-selection-tags')
  if (!focusable) return
  const root = selection.closest('.n-select')
  // A name given to the NSelect lands on its root, a div with no role, where axe refuses it: it
  // is kept aside as data and said by the combobox.
  for (const attribute of NAMING) {
    const given = root?.getAttribute(attribute)
    if (root && given) {
      set(root, `data-select-${attribute}`, given)
      root.removeAttribute(attribute)
    }
  }
  const name = selectName(selection)
  const input = focusable.querySelector('input')
  for (const target of input ? [focusable, input] : [focusable]) {
    set(target, 'role', 'combobox')
    set(target, 'aria-haspopup', 'listbox')
    set(target, 'aria-expanded', String(selection.classList.contains('n-base-selection--active')))
    if (name) {
      set(target, name.attribute, name.value)
      const other = name.attribute === 'aria-label' ? 'aria-labelledby' : 'aria-label'
      if (target.hasAttribute(other)) target.removeAttribute(other)
    }
  }
  if (input) set(input, 'aria-autocomplete', 'list')
  const loading = selection.querySelector('.n-base-suffix .n-base-loading__icon') !== null
  if (loading) set(focusable, 'aria-busy', 'true')
  else if (focusable.hasAttribute('aria-busy')) focusable.removeAttribute('aria-busy')
}

function nameClose(close: Element): void {
  if (close.getAttribute('aria-label') !== 'close') return
  const tag = close.closest('.n-tag')
  const text = tag?.querySelector('.n-tag__content')?.textContent?.trim()
  set(close, 'aria-label', tag && text ? `Remove ${text}` : 'Close')
}

function nameSteppers(field: Element): void {
  const buttons = field.querySelectorAll('button')
  if (buttons.length < 2) return
  const named = field.querySelector('input')?.getAttribute('aria-label')
  const [minus, plus] = [buttons[0], buttons[buttons.length - 1]]
  if (minus) set(minus, 'aria-label', named ? `Decrease ${named}` : 'Decrease')
  if (plus) set(plus, 'aria-label', named ? `Increase ${named}` : 'Increase')
}

function hideIcon(icon: Element): void {
  if (icon.hasAttribute('aria-label') || icon.hasAttribute('aria-labelledby') || icon.querySelector(':scope > title')) return
  // The app's own pictures (a chart's svg) are named where they are drawn; only nameless icons are hidden.
  if (icon.getAttribute('role') === 'img' && !icon.classList.contains('n-icon') && !icon.classList.contains('n-base-loading')) return
  set(icon, 'aria-hidden', 'true')
}

function nameGroup(pair: Element): void {
  set(pair, 'role', 'group')
  const field = pair.closest('[data-label-id], .n-form-item')
  const label = field?.getAttribute('data-label-id') ?? (field ? formLabelId(field) : null)
  if (label && !pair.hasAttribute('aria-label')) set(pair, 'aria-labelledby', label)
}

/** Gives every Naive UI control under `root` (and `root` itself) its role and name. */
export function nameControls(root: Element): void {
  const each = (selector: string, apply: (element: Element) => void): void => {
    if (root.matches(selector)) apply(root)
    for (const element of root.querySelectorAll(selector)) apply(element)
  }
  each(DECORATIVE_ICONS, hideIcon)
  // A spinner (a select's, a button's while it works) is a picture named "loading" by Naive UI:
  // a select says it on the combobox (aria-busy), a button by its own text and disabled state.
  each('.n-base-loading', (spinner) => set(spinner, 'aria-hidden', 'true'))
  each('.n-base-close', nameClose)
  each('.n-input-number', nameSteppers)
  each('.n-form-item', nameFormField)
  // A date range's pair of inputs sits in a div reached by Tab: a group, named by its field.
  each('.n-input--pair', nameGroup)
  // A change inside a select (its tags, its spinner) is handled from the select itself.
  const selection = root.closest(SELECTION)
  if (selection) nameSelect(selection)
  each(SELECTION, nameSelect)
}

/** The attributes Naive UI changes that this reads: a select's open state (class), a name given later. */
const WATCHED_ATTRIBUTES = ['class', 'aria-label', 'aria-labelledby']

/**
 * Names every control in `document` now and as Vue draws more (teleported menus, dialogs and
 * drawers included). Returns the function that stops watching.
 */
export function watchControls(document: Document): () => void {
  const view = document.defaultView
  if (!view) return () => undefined
  nameControls(document.body)
  const observer = new view.MutationObserver((records) => {
    const changed = new Set<Element>()
    for (const record of records) {
      if (record.type === 'attributes') {
        const target = record.target as Element
        // Only a select's own state, or a name put on a select: everything else is another element's hover.
        if (target.matches(`${SELECTION}, .n-select, .n-select input`)) changed.add(target)
        continue
      }
      for (const node of record.addedNodes) if (node.nodeType === 1) changed.add(node as Element)
      if (record.target.nodeType === 1) {
        const parent = (record.target as Element).closest(`${SELECTION}, .n-tag, .n-input-number, .n-form-item`)
        if (parent) changed.add(parent)
      }
    }
    for (const element of changed) if (element.isConnected) nameControls(element)
  })
  observer.observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: WATCHED_ATTRIBUTES })
  return () => observer.disconnect()
}
