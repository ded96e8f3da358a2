import path from 'node:path'
import { z } from 'zod'
import { ALERT_LIMITS, alertSeriesSchema, firedAlertSchema, type FiredAlertState, type FiredAlertView } from '@contract'
import { AppError } from '../errors'
import { unreadableWrite } from '../files/checked-write'
import { createDocumentStore, noticeOnCorrupt } from '../files/document-store'
import type { Notices } from '../notices'

/**
 * Fired alerts, newest first, in `<userData>/alerts/fired.json`: at most `ALERT_LIMITS.firedKept`
 * (the oldest go first), each with the line as it was checked around the bucket that fired, so
 * the alert view draws it offline. One alert per (preset, rule, line, bucket): a later check
 * that sees the same incident again neither adds nor notifies it twice.
 */
export const keptAlertSchema = firedAlertSchema.omit({ state: true }).extend({
  /** Unique per incident: preset, rule, series key and bucket. */
  incident: z.string(),
  acknowledged: z.boolean(),
  granularity: z.string(),
  categories: z.array(z.string()),
  line: alertSeriesSchema,
  firedIndex: z.number(),
})
export type KeptAlert = z.infer<typeof keptAlertSchema>

const firedFileSchema = z.object({ version: z.literal(1), alerts: z.array(keptAlertSchema) })

export interface FiredQuery {
  preset?: string | undefined
  state?: FiredAlertState | undefined
  offset?: number | undefined
  limit?: number | undefined
}

export interface FiredStore {
  /** Keeps the alerts not seen before; answers those that are new. */
  add(alerts: readonly KeptAlert[]): Promise<KeptAlert[]>
  list(query: FiredQuery): Promise<{ total: number; alerts: FiredAlertView[] }>
  get(id: string): Promise<{ kept: KeptAlert; view: FiredAlertView }>
  acknowledge(id: string): Promise<FiredAlertView>
  snooze(id: string, until: Date): Promise<FiredAlertView>
}

const notFound = () =>
  new AppError('not_found', 'That alert is no longer kept (the oldest alerts make room for new ones). Check the preset again to see what fires now.')

/** An alert the fired list could not read back is refused with a sentence, and nothing is written. */
function refuseUnkeepable(alert: KeptAlert): void {
  const checked = keptAlertSchema.safeParse(alert)
  if (checked.success) return
  const first = checked.error.issues[0]
  const problem = `its ${first?.path.join('.') || 'content'} is not a number AdOps Desk can store (${first?.message ?? 'invalid'})`
  throw unreadableWrite(`The alert on ${alert.series} at ${alert.bucket}`, problem)
}

export function createFiredStore(options: { folder: string; notices: Pick<Notices, 'add'>; now: () => Date }): FiredStore {
  const { now } = options
  const document = createDocumentStore({
    filePath: path.join(options.folder, 'fired.json'),
    schema: firedFileSchema,
    versioning: { version: 1 },
    fallback: { version: 1, alerts: [] },
    saveFailed: (code) =>
      `The fired alerts could not be saved to disk${code === null ? '' : ` (${code})`}. Check the disk; the next check will find them again.`,
    onCorrupt: noticeOnCorrupt(
      options.notices,
      'warning',
      ({ reason }) => `The list of fired alerts could not be read because ${reason}. It was moved aside and starts empty.`,
    ),
    now,
  })

  function stateOf(alert: KeptAlert): FiredAlertView {
    const { incident: _incident, acknowledged, granularity: _granularity, categories: _categories, line: _line, firedIndex: _firedIndex, ...view } = alert
    const snoozed = alert.snoozedUntil !== null && Date.parse(alert.snoozedUntil) > now().getTime()
    const state: FiredAlertState = acknowledged ? 'acknowledged' : snoozed ? 'snoozed' : 'new'
    return { ...view, state, snoozedUntil: snoozed ? alert.snoozedUntil : null }
  }

  async function change(id: string, edit: (alert: KeptAlert) => KeptAlert): Promise<FiredAlertView> {
    let changed: KeptAlert | undefined
    await document.update((current) => {
      const at = current.alerts.findIndex((alert) => alert.id === id)
      if (at < 0) throw notFound()
      changed = edit(current.alerts[at] as KeptAlert)
      return { ...current, alerts: current.alerts.map((alert, index) => (index === at ? (changed as KeptAlert) : alert)) }
    })
    return stateOf(changed as KeptAlert)
  }

  return {
    async add(alerts) {
      // Checked before the file is touched: JSON writes ±Infinity and NaN as null, which the next start would refuse, moving the whole list aside.
      for (const alert of alerts) refuseUnkeepable(alert)
      const added: KeptAlert[] = []
      await document.update((current) => {
        const known = new Set(current.alerts.map((alert) => alert.incident))
        for (const alert of alerts) {
          if (known.has(alert.incident)) continue
          known.add(alert.incident)
          added.push(alert)
        }
        if (added.length === 0) return current
        return { ...current, alerts: [...added.slice().reverse(), ...current.alerts].slice(0, ALERT_LIMITS.firedKept) }
      })
      return added
    },
    async list({ preset, state, offset = 0, limit = 100 }) {
      const all = (await document.read()).alerts
        .map(stateOf)
        .filter((alert) => (preset === undefined || alert.preset === preset) && (state === undefined || alert.state === state))
      return { total: all.length, alerts: all.slice(offset, offset + limit) }
    },
    async get(id) {
      const kept = (await document.read()).alerts.find((alert) => alert.id === id)
      if (kept === undefined) throw notFound()
      return { kept, view: stateOf(kept) }
    },
    acknowledge: (id) => change(id, (alert) => ({ ...alert, acknowledged: true, snoozedUntil: null })),
    async snooze(id, until) {
      if (until.getTime() <= now().getTime()) throw new AppError('validation', 'Pick a time in the future to snooze until.', { field: 'until' })
      return change(id, (alert) => ({ ...alert, acknowledged: false, snoozedUntil: until.toISOString() }))
    },
  }
}
