import { toRaw } from 'vue'

/**
 * Whether main answered the same again (a list, a report description): both come from main's
 * one normalising step, keys in the same order, so their JSON is equal when they are. A store
 * then keeps what it holds, and nothing that renders from it renders again for nothing.
 */
export function sameAnswer(held: unknown, answer: unknown): boolean {
  return held !== undefined && JSON.stringify(toRaw(held)) === JSON.stringify(answer)
}
