/**
 * What a schedule's "check alerts" action calls. The alerts feature implements it (issue 22's
 * alerts half); the composition root wires it. The shape is agreed between both halves: change it in both.
 */
export interface AlertFiring {
  preset: string
  rule: string
  series: string
  bucket: string
  value: number
  baseline: number
  changePct: number
  z: number
}

export interface AlertCheckResult {
  firings: AlertFiring[]
  dataAsOf: string
  checkedSeries: number
}

export interface AlertsPort {
  checkPresetAlerts(presetName: string, options: { signal?: AbortSignal; now?: Date }): Promise<AlertCheckResult>
}
