import type { CDPSession, Page } from '@playwright/test'

/** The roles a user operates: each needs a name a screen reader can say. */
const CONTROL_ROLES = new Set(['button', 'combobox', 'textbox', 'searchbox', 'checkbox', 'spinbutton', 'link', 'switch', 'radio', 'image', 'img'])

/**
 * Names that are an icon's, not the control's: Naive UI names its spinner "loading" and its
 * close icons "close" (in lower case: a dialog's "Close" is a name), and a bare "✕" says nothing
 * of what it removes.
 */
const ICON_NAMES = new Set(['loading', 'close', '✕', '×', '+', '-', '−'])

interface AxValue {
  value?: unknown
}
interface AxProperty {
  name: string
  value: AxValue
}
interface AxNode {
  nodeId: string
  ignored: boolean
  role?: AxValue
  name?: AxValue
  properties?: AxProperty[]
  backendDOMNodeId?: number
}

const text = (value: AxValue | undefined): string => (typeof value?.value === 'string' ? value.value.trim() : '')

/** Where a node sits, for a person reading the failure: its element and the nearest test id around it. */
async function whereIs(session: CDPSession, backendNodeId: number | undefined): Promise<string> {
  if (backendNodeId === undefined) return '(no element)'
  const { object } = await session.send('DOM.resolveNode', { backendNodeId })
  if (!object.objectId) return '(no element)'
  const { result } = await session.send('Runtime.callFunctionOn', {
    objectId: object.objectId,
    returnByValue: true,
    functionDeclaration: `function () {
      const element = this.nodeType === 1 ? this : this.parentElement
      if (!element) return '(no element)'
      const own = element.tagName.toLowerCase() + (element.classList.length ? '.' + [...element.classList].slice(0, 2).join('.') : '')
      const marked = element.closest('[data-test]')
      return own + (marked ? ' in [data-test=' + marked.getAttribute('data-test') + ']' : '')
    }`,
  })
  return typeof result.value === 'string' ? result.value : '(no element)'
}

/** Whether a field's only name is its placeholder: no label, no aria-label or aria-labelledby (the label is lost once it is typed in). */
async function namedByPlaceholder(session: CDPSession, backendNodeId: number | undefined): Promise<boolean> {
  if (backendNodeId === undefined) return false
  const { object } = await session.send('DOM.resolveNode', { backendNodeId })
  if (!object.objectId) return false
  const { result } = await session.send('Runtime.callFunctionOn', {
    objectId: object.objectId,
    returnByValue: true,
    functionDeclaration: `function () {
      if (this.nodeType !== 1 || !this.getAttribute('placeholder')) return false
      return !(this.labels?.length || this.hasAttribute('aria-label') || this.hasAttribute('aria-labelledby'))
    }`,
  })
  return result.value === true
}

/**
 * What a screen reader would meet on the page as it is (Chromium's accessibility tree, read over
 * the DevTools protocol): every control with no name or a name that is an icon's, an element
 * reached by Tab that has no role (Naive UI's select was one), with `labelsOnly` a text field
 * named only by its placeholder (a form's fields have labels), and a page without a `main`
 * landmark. An empty list is a page every control of which can be told apart by ear.
 */
export async function unnamedControls(page: Page, { labelsOnly = false } = {}): Promise<string[]> {
  const session = await page.context().newCDPSession(page)
  try {
    await session.send('DOM.enable')
    await session.send('Accessibility.enable')
    const { nodes } = (await session.send('Accessibility.getFullAXTree')) as { nodes: AxNode[] }
    const found: string[] = []
    let hasMain = false
    for (const node of nodes) {
      if (node.ignored) continue
      const role = text(node.role)
      if (role === 'main') hasMain = true
      const tabStop = node.properties?.some((property) => property.name === 'focusable' && property.value.value === true)
      if (tabStop && (role === 'generic' || role === 'none')) found.push(`a tab stop with no role: ${await whereIs(session, node.backendDOMNodeId)}`)
      if (!CONTROL_ROLES.has(role)) continue
      const hidden = node.properties?.some((property) => property.name === 'hidden' && property.value.value === true)
      if (hidden) continue
      const name = text(node.name)
      if (name === '') found.push(`${role} with no name: ${await whereIs(session, node.backendDOMNodeId)}`)
      else if (ICON_NAMES.has(name)) found.push(`${role} named by an icon "${name}": ${await whereIs(session, node.backendDOMNodeId)}`)
      else if (labelsOnly && (role === 'textbox' || role === 'searchbox' || role === 'combobox') && (await namedByPlaceholder(session, node.backendDOMNodeId)))
        found.push(`${role} named only by its placeholder "${name}": ${await whereIs(session, node.backendDOMNodeId)}`)
    }
    if (!hasMain) found.push('no main landmark')
    return found
  } finally {
    await session.detach()
  }
}
