import { computed, ref, watch, type Ref } from 'vue'
import {
  DATE_RANGE_PRESETS,
  datePresetOf,
  datePresetTokens,
  describeDateRange,
  readDateRangeText,
  resolveDateRange,
  type DateRangeTokens,
} from '../../../../common/date-ranges'
import { formatDay, localToday } from '../../../../common/date-tokens'

/** The select's value for "pick the days on a calendar". */
export const CUSTOM_RANGE = 'custom'

export interface DateRangeControlInput {
  /** The tokens as stored (the definition's or the board's dates). */
  tokens: Ref<DateRangeTokens>
  set: (tokens: DateRangeTokens) => void
  /** The whole-hour offset main resolves the range at; null until known (this computer's is used). */
  offset: Ref<number | null>
  /** Milliseconds since 1970, ticking (useNow), so "today" moves on at midnight. */
  now: Ref<number>
}

/** This computer's offset in whole hours, as main rounds it (toward zero, −12 to +12). */
const computerOffset = (now: number): number => Math.max(-12, Math.min(12, Math.trunc(-new Date(now).getTimezoneOffset() / 60)))

/** The tokens as the text box shows them: one token for a single day, else "start to end". */
export const tokensText = (tokens: DateRangeTokens): string =>
  tokens.start.trim() === tokens.end.trim() ? tokens.start.trim() : `${tokens.start.trim()} to ${tokens.end.trim()}`

/**
 * The date range control's state: the presets, each with the days it stands for today; the
 * calendar for a custom range; and the text box, read when Enter is pressed, when it loses focus
 * or when text is pasted, which says what it read ("Read as Last 14 days · 23 Nov – 6 Dec") or
 * what it did not understand. Previews resolve with common/date-tokens at main's offset; main
 * stays the one that resolves what a run sends.
 */
export function useDateRangeControl(input: DateRangeControlInput) {
  const today = computed(() => localToday(new Date(input.now.value), input.offset.value ?? computerOffset(input.now.value)))
  const customChosen = ref(false)
  const preset = computed(() => datePresetOf(input.tokens.value))
  const selected = computed(() => (customChosen.value ? CUSTOM_RANGE : (preset.value?.id ?? CUSTOM_RANGE)))
  const options = computed(() => [
    ...DATE_RANGE_PRESETS.map((candidate) => ({ value: candidate.id, label: describeDateRange(candidate.tokens, today.value) })),
    { value: CUSTOM_RANGE, label: preset.value === null ? describeDateRange(input.tokens.value, today.value) : 'Custom range…' },
  ])
  /** The days the current tokens stand for, as `YYYY-MM-DD` (the calendar's), or null. */
  const days = computed(() => {
    const range = resolveDateRange(input.tokens.value, today.value)
    return 'error' in range ? null : { start: formatDay(range.start), end: formatDay(range.end) }
  })

  const text = ref(tokensText(input.tokens.value))
  const problem = ref<string | null>(null)
  const understood = ref<string | null>(null)
  watch(
    () => tokensText(input.tokens.value),
    (shown) => {
      text.value = shown
      problem.value = null
    },
  )

  function choose(id: string): void {
    customChosen.value = id === CUSTOM_RANGE
    const tokens = datePresetTokens(id)
    if (tokens) input.set(tokens)
    understood.value = null
  }
  function pickDays(start: string, end: string): void {
    customChosen.value = true
    input.set({ start, end })
  }
  /** Reads the text box; a range it understands replaces the tokens, the rest is said. */
  function read(typed: string = text.value): void {
    if (typed.trim() === tokensText(input.tokens.value) && problem.value === null) return
    const answer = readDateRangeText(typed, today.value)
    if ('error' in answer) {
      text.value = typed
      problem.value = answer.error
      understood.value = null
      return
    }
    customChosen.value = datePresetOf(answer.tokens) === null
    input.set(answer.tokens)
    text.value = tokensText(answer.tokens)
    problem.value = null
    // A custom range is read as its days alone: "Read as Custom range" says nothing.
    understood.value = `Read as ${describeDateRange(answer.tokens, today.value).replace(/^Custom range · /, '')}`
  }
  function paste(event: ClipboardEvent): void {
    const pasted = event.clipboardData?.getData('text/plain')
    if (pasted === undefined || pasted === '') return
    event.preventDefault()
    read(pasted)
  }

  return { options, selected, days, text, problem, understood, choose, pickDays, read, paste }
}
