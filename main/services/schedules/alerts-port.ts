/**
 * What a schedule's "check alerts" action calls: the alerts feature implements it, the
 * composition root wires it (main/services/index.ts). The check's shapes are the alerts
 * feature's own, so the two halves cannot drift apart.
 */
import type { AlertCheckResult } from '../alerts/types'

export type { AlertCheckResult, AlertFiring } from '../alerts/types'

export interface AlertsPort {
  /** `profileId`: the schedule's own connection (without it, the active one). */
  checkPresetAlerts(presetName: string, options: { signal?: AbortSignal; now?: Date; profileId?: string }): Promise<AlertCheckResult>
}
