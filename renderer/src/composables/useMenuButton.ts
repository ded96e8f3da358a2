import { nextTick, onBeforeUnmount, ref, useId, type HTMLAttributes, type Ref } from 'vue'
import type { DropdownOption } from 'naive-ui'

/** Naive UI marks the option the arrow keys (or the pointer) are on with this class. */
const PENDING_CLASS = 'n-dropdown-option-body--pending'

/**
 * A Naive UI dropdown as the WAI-ARIA menu button: the button says it opens a menu and whether it
 * is open; the menu is a `menu` of `menuitem`s, takes the focus while open and names the item the
 * arrow keys are on as its active descendant (Naive keeps the focus where it was and only
 * highlights the item, so a screen reader heard nothing); closing gives the focus back to the
 * button. Naive's own keys (arrows, Enter, Escape) listen on the document and work as before.
 */
export function useMenuButton(name: string, trigger: Ref<{ $el?: Element } | HTMLElement | null>) {
  const id = `menu-${useId()}`
  const open = ref(false)
  const active = ref<string | null>(null)
  let observer: MutationObserver | null = null

  const menuElement = (): HTMLElement | null => document.getElementById(id)
  const triggerElement = (): HTMLElement | null => {
    const held = trigger.value
    const element = held instanceof HTMLElement ? held : (held?.$el ?? null)
    return element instanceof HTMLElement ? element : null
  }

  function follow(menu: HTMLElement): void {
    const read = (): void => void (active.value = menu.querySelector(`.${PENDING_CLASS}[role="menuitem"]`)?.id ?? null)
    observer = new MutationObserver(read)
    observer.observe(menu, { subtree: true, attributes: true, attributeFilter: ['class'] })
    read()
  }

  function stop(): void {
    observer?.disconnect()
    observer = null
    active.value = null
  }

  /** For NDropdown's `on-update:show`. */
  async function onShow(shown: boolean): Promise<void> {
    open.value = shown
    if (!shown) {
      const menu = menuElement()
      const focusWasInMenu = menu !== null && menu.contains(document.activeElement)
      stop()
      if (focusWasInMenu || document.activeElement === document.body) triggerElement()?.focus()
      return
    }
    await nextTick()
    const menu = menuElement()
    if (menu === null || !open.value) return
    follow(menu)
    menu.focus()
  }

  onBeforeUnmount(stop)

  return {
    /** For the trigger button. */
    buttonProps: () => ({ 'aria-haspopup': 'menu' as const, 'aria-expanded': open.value, 'aria-controls': open.value ? id : undefined }),
    /** For NDropdown's `menu-props`. */
    menuProps: (): Record<string, string | number | undefined> => ({
      id,
      role: 'menu',
      'aria-label': name,
      tabindex: -1,
      'aria-activedescendant': active.value ?? undefined,
      // The item the arrows are on is highlighted: a ring round the whole menu (drawn after a click too) only added noise.
      style: 'outline: none',
    }),
    /** The options as menu items (their own props, a data-test for one, kept). */
    items: (options: DropdownOption[]): DropdownOption[] =>
      options.map((option) => ({ ...option, props: { ...(option.props ?? {}), role: 'menuitem', id: `${id}-${String(option.key)}` } as HTMLAttributes })),
    onShow,
  }
}
