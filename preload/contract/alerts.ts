/**
 * Alerts: rules that belong to a preset and watch every line of it (the top-N lines and the
 * total) against a seasonal baseline, the alerts they fired, and a backtest to tune a rule
 * before it is saved.
 *
 * The baseline of a bucket is the median of the same weekday (and the same hour at hourly
 * granularity) over the rule's last `weeks` weeks; a bucket fires when the change against it
 * is at least `minChangePct` in the rule's direction, its robust z-score (median and MAD) is at
 * least `minZ`, and the baseline is at least `minBaseline`. Buckets inside the platform's data
 * lag are never judged; every answer says up to when the data is complete (`dataAsOf`).
 *
 * Buckets are the platform's `__time__` text as given, never a browser-timezone date.
 */
import { z } from 'zod'
import { presetNameSchema } from './presets'
import { channel, profileRef, requestId } from './primitives'

export const alertDirections = ['drop', 'rise', 'either'] as const
export type AlertDirection = (typeof alertDirections)[number]

/** What a rule starts with when the user leaves a field alone (the issue's defaults). */
export const ALERT_RULE_DEFAULTS = { minZ: 3, weeks: 4, minBaseline: 0 } as const
/** The most rules one preset keeps, and the most weeks a baseline may look back. */
export const ALERT_LIMITS = { rulesPerPreset: 20, maxWeeks: 12, backtestWeeks: 8, firedKept: 500 } as const

export const alertRuleSchema = z
  .object({
    /** Stable within its preset: the ledger and fired alerts name the rule by it. */
    id: z.string().trim().min(1, 'Required').max(100),
    /** One of the preset's metrics (a data field of its report). */
    metric: z.string().min(1).max(200),
    direction: z.enum(alertDirections),
    /** Percent: 30 means a change of at least 30% against the baseline. */
    minChangePct: z.number().min(0).max(100_000),
    /** Robust z-score: |value − median| / (1.4826 · MAD) must reach this. */
    minZ: z.number().min(0).max(1_000).default(ALERT_RULE_DEFAULTS.minZ),
    /** A baseline below this is too small to judge (10 → 1 is not an incident). */
    minBaseline: z.number().min(0).max(Number.MAX_SAFE_INTEGER).default(ALERT_RULE_DEFAULTS.minBaseline),
    /** Same weekdays (and hours) looked back at for the baseline. */
    weeks: z.number().int().min(1).max(ALERT_LIMITS.maxWeeks).default(ALERT_RULE_DEFAULTS.weeks),
  })
  .strict()
export type AlertRule = z.output<typeof alertRuleSchema>
export type AlertRuleInput = z.input<typeof alertRuleSchema>

export const alertRulesSchema = z
  .array(alertRuleSchema)
  .max(ALERT_LIMITS.rulesPerPreset, `A preset keeps at most ${ALERT_LIMITS.rulesPerPreset} rules`)
  .superRefine((rules, context) => {
    const seen = new Set<string>()
    rules.forEach((rule, index) => {
      if (seen.has(rule.id)) context.addIssue({ code: 'custom', path: [index, 'id'], message: `Another rule of this preset is already called "${rule.id}"` })
      seen.add(rule.id)
    })
  })

/** A preset's rules as saved; `savedAt` is null when the preset has none yet. */
export const presetRulesSchema = z.object({ preset: z.string(), rules: z.array(alertRuleSchema), savedAt: z.string().nullable() })
export type PresetRules = z.infer<typeof presetRulesSchema>

/** One bucket of one line that a rule judged an incident. */
export const alertFiringSchema = z.object({
  preset: z.string(),
  /** The rule's id. */
  rule: z.string(),
  /** The line as the chart names it ("Total", "Publisher A / mobile"). */
  series: z.string(),
  /** The platform's `__time__` text. */
  bucket: z.string(),
  value: z.number(),
  baseline: z.number(),
  /** Percent against the baseline: −60 is a 60% drop. */
  changePct: z.number(),
  z: z.number(),
})
export type AlertFiringView = z.infer<typeof alertFiringSchema>

/** One line of a preset with its baseline band, aligned by position with the answer's `categories`. */
export const alertSeriesSchema = z.object({
  /** The chart's series key (`<metric>|<line value>`). */
  key: z.string(),
  /** The line as the chart names it. */
  label: z.string(),
  role: z.enum(['line', 'total']),
  /** null is a gap (no data) and is never judged. */
  values: z.array(z.number().nullable()),
  /** The seasonal median; null where there was not enough history. */
  baseline: z.array(z.number().nullable()),
  /** Below `low` or above `high` the rule fires (both the change and the z-score hold); null where not judged. */
  low: z.array(z.number().nullable()),
  high: z.array(z.number().nullable()),
  fired: z.array(z.boolean()),
  /** How many buckets of this line fired. */
  firedCount: z.number(),
})
export type AlertSeriesView = z.infer<typeof alertSeriesSchema>

export const backtestResultSchema = z.object({
  preset: z.string(),
  metric: z.string(),
  /** The time key the check runs at (`granularity_day`, `granularity_hour`…). */
  granularity: z.string(),
  /** The whole-hour offset the buckets are in. */
  timezone: z.number(),
  /** Weeks the backtest covers (8). */
  weeks: z.number(),
  /** Buckets as the platform's `__time__` text. */
  categories: z.array(z.string()),
  lines: z.array(alertSeriesSchema),
  /** Times the rule would have fired over the whole backtest, all lines together. */
  firedCount: z.number(),
  /** Data is complete up to here (ISO 8601); later buckets are drawn but not judged. */
  dataAsOf: z.string(),
  notes: z.array(z.string()),
})
export type BacktestView = z.infer<typeof backtestResultSchema>

export const firedAlertStates = ['new', 'acknowledged', 'snoozed'] as const
export type FiredAlertState = (typeof firedAlertStates)[number]

/** A fired alert as the list shows it. */
export const firedAlertSchema = alertFiringSchema.extend({
  id: z.string(),
  metric: z.string(),
  direction: z.enum(alertDirections),
  firedAt: z.string(),
  dataAsOf: z.string(),
  state: z.enum(firedAlertStates),
  /** ISO 8601 while snoozed, else null. A snooze that has run out reads as `new` again. */
  snoozedUntil: z.string().nullable(),
})
export type FiredAlertView = z.infer<typeof firedAlertSchema>

const presetInput = { preset: presetNameSchema }
const alertRef = z.object({ id: z.string().min(1).max(100) }).strict()

export const alertsChannels = {
  /** The preset's rules (none yet: an empty list). */
  rules: channel(z.object(presetInput).strict(), presetRulesSchema),
  /** Replaces the preset's rules; ids must be unique within the preset. */
  saveRules: channel(z.object({ ...presetInput, rules: alertRulesSchema }).strict(), presetRulesSchema),
  /** Where a draft rule would have fired over the last 8 weeks, line by line, with the baseline band. Cancellable. */
  backtest: channel(z.object({ ...presetInput, profileId: profileRef, rule: alertRuleSchema, requestId: requestId.optional() }).strict(), backtestResultSchema),
  /** Checks the preset's saved rules now; what fires is also kept in the fired list and notified. Cancellable. */
  check: channel(
    z.object({ ...presetInput, profileId: profileRef, requestId: requestId.optional() }).strict(),
    z.object({ firings: z.array(alertFiringSchema), dataAsOf: z.string(), checkedSeries: z.number() }),
  ),
  /** Fired alerts, newest first. */
  fired: channel(
    z
      .object({
        preset: presetNameSchema.optional(),
        state: z.enum(firedAlertStates).optional(),
        offset: z.number().int().min(0).optional(),
        limit: z.number().int().min(1).max(ALERT_LIMITS.firedKept).optional(),
      })
      .strict(),
    z.object({ total: z.number(), alerts: z.array(firedAlertSchema) }),
  ),
  acknowledge: channel(alertRef, firedAlertSchema),
  /** Quiet until then (ISO 8601 with an offset, in the future). */
  snooze: channel(z.object({ id: z.string().min(1).max(100), until: z.iso.datetime({ offset: true }) }).strict(), firedAlertSchema),
  /** One fired alert for its view: the line as it was checked, its band and the bucket that fired (kept, works offline). */
  get: channel(
    alertRef,
    z.object({
      alert: firedAlertSchema,
      granularity: z.string(),
      categories: z.array(z.string()),
      series: alertSeriesSchema,
      /** Index into `categories` of the bucket that fired. */
      firedIndex: z.number(),
    }),
  ),
} as const

export const alertEvents = {
  /** A check (scheduled or asked) fired a new alert. */
  onAlertFired: firedAlertSchema,
  /** The user clicked an alert's desktop notification: open its view. */
  onOpenAlert: z.object({ id: z.string() }),
} as const
