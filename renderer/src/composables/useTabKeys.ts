/**
 * The WAI-ARIA tabs pattern's keys (https://www.w3.org/WAI/ARIA/apg/patterns/tabs/): Left and
 * Right move to the previous and next tab, wrapping around; Home and End to the first and last.
 * A vertical list (the rail's menu) moves with Up and Down instead.
 * Returns the index to move to, or null for any other key (left to the browser).
 */
export function tabKeyTarget(key: string, index: number, count: number, orientation: 'horizontal' | 'vertical' = 'horizontal'): number | null {
  if (count === 0) return null
  const [previous, next] = orientation === 'horizontal' ? ['ArrowLeft', 'ArrowRight'] : ['ArrowUp', 'ArrowDown']
  switch (key) {
    case previous:
      return (index - 1 + count) % count
    case next:
      return (index + 1) % count
    case 'Home':
      return 0
    case 'End':
      return count - 1
    default:
      return null
  }
}

/** Ids that tie a tab to the panel it controls (aria-controls / aria-labelledby), unique per tab set. */
export const tabId = (base: string, name: string): string => `${base}-tab-${name}`
export const tabPanelId = (base: string, name?: string): string => (name === undefined ? `${base}-panel` : `${base}-panel-${name}`)
