/**
 * The alert service over the app's own services: rules and fired alerts in `<data>/alerts`, the
 * report `info` the app keeps, and a report service of its own for the checks' charts (a check
 * is not a run the user made, so it stays out of the history and the result cache).
 */
import type { EventHub } from '../events'
import type { Logger } from '../logs/logger'
import type { ServiceAdapters } from '../host-adapters'
import type { Notices } from '../notices'
import type { PresetStore } from '../presets/preset-store'
import type { InfoStore } from '../reports/info-store'
import { createReportService, type ReportService } from '../reports/service'
import type { AlertsPort } from '../schedules/alerts-port'
import type { SettingsStore } from '../workspace/settings-store'
import type { Workspace } from '../workspace/workspace'
import { createAlertWatch, type AlertWatch, type WatchTimers } from './alert-watch'
import { createFiredStore } from './fired-store'
import { alertsFolder, type RuleStore } from './rules-store'
import { createAlertService, type AlertService } from './service'

/** A check's chart is judged point by point, never reduced: 12 weeks of hours is 2,016 points. */
const ALERT_POINT_BUDGET = 20_000

export interface AppAlertsOptions {
  userDataDir: string
  /** The rules store (shared with the demo's first start, which saves a rule: one cache per file). */
  rules: RuleStore
  workspace: Pick<Workspace, 'connection' | 'state'>
  settings: Pick<SettingsStore, 'read'>
  presets: Pick<PresetStore, 'get'>
  /** The app's report service: its `info` is cached and shared with the runs. */
  reports: Pick<ReportService, 'info'>
  infoStore: InfoStore
  notices: Pick<Notices, 'add'>
  events: Pick<EventHub, 'emit'>
  host: Pick<ServiceAdapters, 'alertNotifier'>
  now: () => Date
  /** Passed to the checks' own report service only when the caller pins the time (tests). */
  pinnedNow?: () => Date
}

export function createAppAlerts(options: AppAlertsOptions): AlertService {
  const { workspace, reports, now } = options
  const alertReports = createReportService({
    reportingOf: async (profileId) => (await workspace.connection(profileId)).reporting,
    store: options.infoStore,
    ...(options.pinnedNow ? { now: options.pinnedNow } : {}),
  })
  return createAlertService({
    rules: options.rules,
    fired: createFiredStore({ folder: alertsFolder(options.userDataDir), notices: options.notices, now }),
    source: {
      infoOf: (profileId, project, report, signal) => reports.info(profileId, project, report, { signal }),
      runChart: (profileId, definition, signal) => alertReports.run(profileId, definition, { signal, pointBudget: ALERT_POINT_BUDGET }),
    },
    presetOf: (name) => options.presets.get(name),
    activeProfileId: async () => (await workspace.state()).activeProfileId,
    lagHours: async () => (await options.settings.read()).alertLagHours,
    events: options.events,
    notify: options.host.alertNotifier ?? null,
    now,
  })
}

/** What a schedule's "check alerts" calls: the preset's rules on the schedule's own connection (the active one without it). */
export function schedulesAlertsPort(alerts: Pick<AlertService, 'check' | 'checkPresetAlerts'>): AlertsPort {
  return {
    checkPresetAlerts: (name, { profileId, signal, now: at }) =>
      profileId === undefined
        ? alerts.checkPresetAlerts(name, { ...(signal ? { signal } : {}), ...(at ? { now: at } : {}) })
        : alerts.check(profileId, name, { signal: signal ?? new AbortController().signal, ...(at ? { now: at } : {}) }),
  }
}

export interface AppAlertWatchOptions {
  alerts: Pick<AlertService, 'check' | 'checkPresetAlerts'>
  presets: Pick<PresetStore, 'list'>
  rules: Pick<RuleStore, 'read'>
  /** Any request's 429 (the http client's retry) holds the watch back for its wait. */
  events: Pick<EventHub, 'subscribe'>
  /** A round checks on the active connection: with none, there is nothing to check on. */
  activeProfileId: () => Promise<string | null>
  online: () => boolean
  log: Pick<Logger, 'warn'>
  now: () => Date
  timers?: WatchTimers
}

/** The watch over the app's presets and rules (alert-watch.ts); its subscription ends when it stops. */
export function createAppAlertWatch(options: AppAlertWatchOptions): AlertWatch {
  const { alerts, rules } = options
  const hasRules = async (preset: string): Promise<boolean> => (await rules.read(preset)).rules.length > 0
  const watch = createAlertWatch({
    check: (preset, profileId, signal) => (profileId === null ? alerts.checkPresetAlerts(preset, { signal }) : alerts.check(profileId, preset, { signal })),
    async presetsWithRules() {
      if ((await options.activeProfileId()) === null) return []
      const names = (await options.presets.list()).presets.map((preset) => preset.name)
      const flags = await Promise.all(names.map((name) => hasRules(name).catch(() => false)))
      return names.filter((_, at) => flags[at])
    },
    hasRules,
    online: options.online,
    nowMs: () => options.now().getTime(),
    failed: (preset, error) =>
      options.log.warn('an alert check without a schedule failed', { preset, error: error instanceof Error ? error.message : String(error) }),
    ...(options.timers ? { timers: options.timers } : {}),
  })
  const unsubscribe = options.events.subscribe((event, payload) => {
    if (event === 'onThrottled') watch.throttled((payload as { waitSeconds: number }).waitSeconds)
  })
  return {
    ...watch,
    async stop() {
      unsubscribe()
      await watch.stop()
    },
  }
}
