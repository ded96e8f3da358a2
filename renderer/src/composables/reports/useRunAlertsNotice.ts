import { h, onScopeDispose, watch } from 'vue'
import { useMessage } from 'naive-ui'
import { browserTimers } from '../../lib/timers'
import { createFiredAfterRun, FIRED_AFTER_RUN_TIMING, type FiredAfterRunTimers } from '../../domain/alerts/firedAfterRun'
import { firedAfterRunText } from '../../domain/alerts/firedAfterRunText'
import { useAlertsStore } from '../../stores/alerts'
import { useNavigationStore } from '../../stores/navigation'
import { useReportsStore } from '../../stores/reports'

const realTimers: FiredAfterRunTimers = { ...browserTimers, nowMs: () => Date.now() }

/**
 * A preset's run in Reports tells when its alert rules fired: "2 alerts fired", with a link to
 * Alerts, once main's check after the run has sent them (nothing when none fired). The notice
 * stays until closed, so its link can be reached by keyboard.
 */
export function useRunAlertsNotice(timers: FiredAfterRunTimers = realTimers): void {
  const reports = useReportsStore()
  const alerts = useAlertsStore()
  const navigation = useNavigationStore()
  const message = useMessage()
  const counter = createFiredAfterRun({
    ...FIRED_AFTER_RUN_TIMING,
    timers,
    tell(preset, fired) {
      const shown = message.warning(
        () =>
          h('span', [
            firedAfterRunText(preset, fired),
            ' ',
            h(
              'a',
              { href: '#', 'data-test': 'run-alerts-open', onClick: (event: Event) => (event.preventDefault(), shown.destroy(), navigation.open('alerts')) },
              'Open Alerts',
            ),
          ]),
        { closable: true, duration: 0 },
      )
    },
  })
  watch(
    () => reports.presetRun,
    (run) => {
      if (run !== null) counter.ran(run.preset)
    },
  )
  const stopListening = alerts.onArrived((alert) => counter.arrived(alert))
  onScopeDispose(() => {
    stopListening()
    counter.stop()
  })
}
