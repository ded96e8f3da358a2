import { computed, ref, watch, type ComputedRef } from 'vue'
import type { ScheduleTimezone } from '@contract'
import { api, unwrap } from '../../api/bridge'
import { isoDay, patternExample } from '../../domain/schedules/fileName'
import type { ScheduleForm } from '../../domain/schedules/form'
import { usePresetsStore } from '../../stores/presets'

/**
 * The file name a run would write today: the preset's relative dates resolved by main (as a run
 * resolves them), the tokens filled. While main answers, or when it cannot, the dates read as
 * the preset's own tokens, so the example never waits on anything.
 */
export function usePatternExample(form: () => ScheduleForm): ComputedRef<string> {
  const presets = usePresetsStore()
  const resolved = ref<{ start: string; end: string } | null>(null)
  // A board has no one range (its file names hold the run's day), so only a preset's dates are resolved.
  const summary = computed(() => (form().targetKind === 'preset' ? (presets.presets.find((preset) => preset.name === form().targetName) ?? null) : null))

  async function resolve(dates: { start: string; end: string }, timezone: ScheduleTimezone): Promise<void> {
    try {
      const range = await unwrap(
        api().reports.resolveDates({ start: dates.start, end: dates.end, timezone: { mode: timezone === 'report' ? 'report' : 'os' }, reportTimezone: null }),
      )
      resolved.value = { start: range.start.slice(0, 10), end: range.end.slice(0, 10) }
    } catch {
      resolved.value = null
    }
  }
  watch(
    () => [summary.value, form().timezone] as const,
    ([preset, timezone]) => {
      resolved.value = null
      if (preset) void resolve(preset.dates, timezone)
    },
    { immediate: true },
  )

  return computed(() => {
    const values = {
      preset: form().targetName ?? (form().targetKind === 'board' ? 'Board' : 'Preset'),
      start: resolved.value?.start ?? summary.value?.dates.start ?? 'start',
      end: resolved.value?.end ?? summary.value?.dates.end ?? 'end',
      date: isoDay(new Date()),
    }
    return patternExample(form().fileNamePattern, values, form().format)
  })
}
