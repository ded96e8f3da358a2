import { watch } from 'vue'
import { hiddenForLine } from '../../domain/alerts/sentences'
import type { useReportsStore } from '../../stores/reports'

/**
 * An alert's link opens its preset on its line: once the preset's chart holds a line of that
 * label (the kept chart or the run's), every other line is hidden, the total kept. Given up
 * when another preset is opened first.
 */
export function focusLineWhenShown(reports: ReturnType<typeof useReportsStore>, preset: string, line: string): void {
  let opened = false
  const stop = watch(
    () => [reports.result, reports.preset] as const,
    ([result, current]) => {
      if (current === preset) opened = true
      else if (opened) return stop()
      if (current !== preset || !result?.series.some((series) => series.label === line)) return
      reports.setHidden(hiddenForLine(result.series, line))
      stop()
    },
  )
}
