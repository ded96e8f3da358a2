import { alertRuleSchema, ALERT_LIMITS, ALERT_RULE_DEFAULTS, type AlertRule, type ReportDefinition } from '@contract'
import { checkDefinition } from '../../services/alerts/service'
import type { AlertFiring } from '../../services/alerts/types'
import { isAppError } from '../../services/errors'
import { csvRow } from '../../services/files/csv'
import { parsePastedRequest } from '../../services/presets/paste'
import type { Command, CommandContext } from '../command'
import { readJsonObject, writeText } from '../io'
import { UsageError } from '../usage'
import { presetArgument } from './presets'

/**
 * `alerts check`: a preset's saved rules, or one rule given by flags over a time_series request,
 * checked against the seasonal baseline now. One JSON line per firing and nothing else on
 * stdout, so cron and CI can pipe it; the exit code says whether anything fired (3).
 */
export const EXIT_FIRED = 3

function formatOf(context: CommandContext): 'json' | 'csv' {
  const format = context.values.format ?? 'json'
  if (format !== 'json' && format !== 'csv') throw new UsageError(`--format must be json or csv, not "${format}".`)
  return format
}

/** A number flag within bounds, or a usage error that names the flag. */
function numberFlag(
  context: CommandContext,
  flag: 'drop' | 'rise' | 'z' | 'min-baseline' | 'weeks' | 'lag-hours',
  fallback: number,
  max: number,
  integer = false,
): number {
  const text = context.values[flag]
  if (text === undefined) return fallback
  const value = Number(text.trim())
  if (text.trim() === '' || !Number.isFinite(value) || value < 0 || value > max || (integer && !Number.isInteger(value))) {
    throw new UsageError(`--${flag} takes ${integer ? 'a whole number' : 'a number'} from 0 to ${max}, not "${text}".`)
  }
  return value
}

/** The one rule `--request` mode describes with its flags. */
function ruleFromFlags(context: CommandContext): AlertRule {
  const metric = context.values.metric?.trim()
  if (metric === undefined || metric === '') throw new UsageError('alerts check --request needs --metric FIELD (the data field to watch).')
  const drop = context.values.drop
  const rise = context.values.rise
  if ((drop === undefined) === (rise === undefined)) throw new UsageError('Give exactly one of --drop PCT or --rise PCT (30 means a change of at least 30%).')
  return alertRuleSchema.parse({
    id: drop === undefined ? 'rise' : 'drop',
    metric,
    direction: drop === undefined ? 'rise' : 'drop',
    minChangePct: numberFlag(context, drop === undefined ? 'rise' : 'drop', 0, 100_000),
    minZ: numberFlag(context, 'z', ALERT_RULE_DEFAULTS.minZ, 1_000),
    minBaseline: numberFlag(context, 'min-baseline', ALERT_RULE_DEFAULTS.minBaseline, Number.MAX_SAFE_INTEGER),
    weeks: numberFlag(context, 'weeks', ALERT_RULE_DEFAULTS.weeks, ALERT_LIMITS.maxWeeks, true),
  })
}

/** The request body as a definition, the way "Paste a request" reads it; what it cannot read is a usage error. */
async function requestDefinition(context: CommandContext, source: string, metric: string): Promise<ReportDefinition> {
  const { token: _ignored, ...body } = await readJsonObject(source, '--request', context.io.stdin)
  try {
    const { definition } = parsePastedRequest(JSON.stringify(body))
    // The watched metric is the one the flags name, whatever data_field the request asked for.
    return { ...definition, metrics: [metric] }
  } catch (error) {
    if (isAppError(error) && error.code === 'validation') throw new UsageError(`--request ${source}: ${error.message}`)
    throw error
  }
}

function firingsText(firings: readonly AlertFiring[], format: 'json' | 'csv'): string {
  if (format === 'csv') {
    let text = csvRow(['preset', 'rule', 'series', 'bucket', 'value', 'baseline', 'change_pct', 'z'])
    for (const firing of firings)
      text += csvRow([firing.preset, firing.rule, firing.series, firing.bucket, firing.value, firing.baseline, firing.changePct, firing.z])
    return text
  }
  return firings
    .map((firing) =>
      JSON.stringify({
        preset: firing.preset,
        rule: firing.rule,
        series: firing.series,
        bucket: firing.bucket,
        value: firing.value,
        baseline: firing.baseline,
        change_pct: firing.changePct,
        z: firing.z,
      }),
    )
    .map((line) => `${line}\n`)
    .join('')
}

const check: Command = {
  group: 'alerts',
  name: 'check',
  args: [],
  options: ['preset', 'request', 'metric', 'drop', 'rise', 'z', 'min-baseline', 'weeks', 'lag-hours', 'format'],
  connection: 'reporting',
  summary: 'check alert rules against a seasonal baseline; exit 3 when one fired',
  notes: [
    "--preset NAME|FILE checks the preset's saved rules (made in the app).",
    '--request FILE --metric FIELD (--drop PCT | --rise PCT) [--z 3] [--min-baseline N] [--weeks 4] checks one rule over a',
    '  time_series request as the specification shows it (without the token): its split_by and chart_lines are the lines watched.',
    'The baseline of a bucket is the median of the same weekday (and hour) over the last --weeks weeks; it fires when the change',
    'is at least PCT percent, the robust z-score at least --z, and the baseline at least --min-baseline.',
    "Buckets within --lag-hours (default: the app's setting, 4 hours) of now are incomplete and never judged.",
    'Output: one JSON line per firing {"preset", "rule", "series", "bucket", "value", "baseline", "change_pct", "z"}; --format csv for a table.',
    'Exit codes: 0 nothing fired, 3 at least one rule fired, 1 API or network error, 2 usage error.',
  ],
  async run(context) {
    const format = formatOf(context)
    const { preset: presetSource, request } = context.values
    if ((presetSource === undefined) === (request === undefined)) throw new UsageError('alerts check needs --preset NAME|FILE or --request FILE (one of them).')
    const signal = context.signal ?? new AbortController().signal
    const lagHours = numberFlag(context, 'lag-hours', await context.services.alertLagHours(), 48)
    let target: { preset: string; definition: ReportDefinition; rules: readonly AlertRule[] }
    if (presetSource !== undefined) {
      const flagged = (['metric', 'drop', 'rise', 'z', 'min-baseline', 'weeks'] as const).filter((flag) => context.values[flag] !== undefined)
      if (flagged.length > 0) throw new UsageError(`--${flagged[0]} goes with --request; a preset's rules are edited in the app.`)
      const preset = await presetArgument(context, presetSource)
      const { rules } = await context.services.alertRules.read(preset.name)
      if (rules.length === 0)
        throw new UsageError(`The preset "${preset.name}" has no alert rules. Add them in the app, or use --request with --metric and --drop/--rise.`)
      target = { preset: preset.name, definition: preset.definition, rules }
    } else {
      const rule = ruleFromFlags(context)
      target = { preset: '', definition: await requestDefinition(context, request as string, rule.metric), rules: [rule] }
    }
    const saved = context.values.profile === undefined ? null : await context.services.profiles.find(context.values.profile)
    const connection = await context.connect()
    const profileId = saved?.id ?? null
    const now = context.services.now()
    const checked = await checkDefinition(context.services.alertSource(connection, profileId), {
      profileId: profileId ?? 'cli',
      preset: target.preset,
      definition: target.definition,
      rules: target.rules,
      now,
      lagHours,
      osOffsetMinutes: -now.getTimezoneOffset(),
      signal,
    })
    const { firings } = checked.result
    const text = firingsText(firings, format)
    if (text !== '') await writeText(context.io.stdout, text)
    return firings.length > 0 ? EXIT_FIRED : undefined
  },
}

export const alertCommands: readonly Command[] = [check]
