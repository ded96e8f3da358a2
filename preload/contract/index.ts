/**
 * THE one list of what crosses the bridge between the renderer and main.
 *
 * Every channel has a name (`domain:verb`), a zod schema for its input and one for its result,
 * defined in the domain's file beside this one. main registers exactly these handlers, the
 * preload exposes exactly these functions (as `window.api.domain.verb`), the web host serves
 * exactly these, and a snapshot test keeps the list visible.
 *
 * Nothing secret ever appears in a result schema: the renderer sees `hasSecret`, never a
 * password or a token.
 */
import type { z } from 'zod'
import { alertsChannels } from './alerts'
import { analysisChannels } from './analysis'
import type { ApiOf } from './api'
import { appChannels } from './app'
import { boardsChannels } from './boards'
import { bulkChannels, changesChannels } from './bulk'
import { draftsChannels, entitiesChannels } from './entities'
import type { events } from './events'
import { exportsChannels } from './exports'
import { profilesChannels, requestsChannels, workspaceChannels } from './profiles'
import { copyRequestChannel, historyChannels, parseRequestChannel, presetsChannels, resultsChannels } from './presets'
import { reportsChannels } from './reports'
import { schedulesChannels } from './schedules'

export const channels = {
  'app:info': appChannels.info,
  'app:dismissNotice': appChannels.dismissNotice,
  'app:about': appChannels.about,
  'app:setTheme': appChannels.setTheme,
  'app:setLogLevel': appChannels.setLogLevel,
  'app:resultCache': appChannels.resultCache,
  'app:setResultCacheLimit': appChannels.setResultCacheLimit,
  'app:alertLagHours': appChannels.alertLagHours,
  'app:setAlertLagHours': appChannels.setAlertLagHours,
  'app:openDataFolder': appChannels.openDataFolder,
  'app:openLogsFolder': appChannels.openLogsFolder,
  'app:reportRendererError': appChannels.reportRendererError,
  'profiles:list': profilesChannels.list,
  'profiles:create': profilesChannels.create,
  'profiles:update': profilesChannels.update,
  'profiles:duplicate': profilesChannels.duplicate,
  'profiles:delete': profilesChannels.delete,
  'profiles:test': profilesChannels.test,
  'workspace:state': workspaceChannels.state,
  'workspace:activate': workspaceChannels.activate,
  'requests:cancel': requestsChannels.cancel,
  'entities:kinds': entitiesChannels.kinds,
  'entities:mirror': entitiesChannels.mirror,
  'entities:sync': entitiesChannels.sync,
  'entities:get': entitiesChannels.get,
  'entities:create': entitiesChannels.create,
  'entities:update': entitiesChannels.update,
  'entities:delete': entitiesChannels.delete,
  'entities:exportCsv': entitiesChannels.exportCsv,
  'bulk:planEdit': bulkChannels.planEdit,
  'bulk:openImport': bulkChannels.openImport,
  'bulk:replanImport': bulkChannels.replanImport,
  'bulk:rows': bulkChannels.rows,
  'bulk:apply': bulkChannels.apply,
  'bulk:cancel': bulkChannels.cancel,
  'bulk:unfinished': bulkChannels.unfinished,
  'bulk:resume': bulkChannels.resume,
  'bulk:discard': bulkChannels.discard,
  'bulk:settle': bulkChannels.settle,
  'changes:list': changesChannels.list,
  'changes:batches': changesChannels.batches,
  'changes:exportCsv': changesChannels.exportCsv,
  'changes:planRevert': changesChannels.planRevert,
  'drafts:list': draftsChannels.list,
  'drafts:save': draftsChannels.save,
  'drafts:discard': draftsChannels.discard,
  'reports:info': reportsChannels.info,
  'reports:known': reportsChannels.known,
  'reports:resolveDates': reportsChannels.resolveDates,
  'reports:run': reportsChannels.run,
  'reports:audience': reportsChannels.audience,
  'reports:values': reportsChannels.values,
  'reports:request': copyRequestChannel,
  'requests:parse': parseRequestChannel,
  'presets:list': presetsChannels.list,
  'presets:get': presetsChannels.get,
  'presets:save': presetsChannels.save,
  'presets:rename': presetsChannels.rename,
  'presets:duplicate': presetsChannels.duplicate,
  'presets:delete': presetsChannels.delete,
  'presets:restore': presetsChannels.restore,
  'presets:import': presetsChannels.import,
  'presets:export': presetsChannels.export,
  'results:get': resultsChannels.get,
  'results:getMany': resultsChannels.getMany,
  'history:list': historyChannels.list,
  'history:get': historyChannels.get,
  'exports:start': exportsChannels.start,
  'exports:cancel': exportsChannels.cancel,
  'exports:list': exportsChannels.list,
  'exports:open': exportsChannels.open,
  'exports:reveal': exportsChannels.reveal,
  'exports:preview': exportsChannels.preview,
  'exports:estimate': exportsChannels.estimate,
  'exports:saveChart': exportsChannels.saveChart,
  'exports:savePivot': exportsChannels.savePivot,
  'schedules:list': schedulesChannels.list,
  'schedules:save': schedulesChannels.save,
  'schedules:delete': schedulesChannels.delete,
  'schedules:runNow': schedulesChannels.runNow,
  'schedules:ledger': schedulesChannels.ledger,
  'schedules:clearFailures': schedulesChannels.clearFailures,
  'schedules:chooseFolder': schedulesChannels.chooseFolder,
  'schedules:installEntry': schedulesChannels.installEntry,
  'schedules:removeEntry': schedulesChannels.removeEntry,
  'schedules:setKeepRunning': schedulesChannels.setKeepRunning,
  'alerts:rules': alertsChannels.rules,
  'alerts:saveRules': alertsChannels.saveRules,
  'alerts:backtest': alertsChannels.backtest,
  'alerts:check': alertsChannels.check,
  'alerts:fired': alertsChannels.fired,
  'alerts:acknowledge': alertsChannels.acknowledge,
  'alerts:snooze': alertsChannels.snooze,
  'alerts:get': alertsChannels.get,
  'boards:list': boardsChannels.list,
  'boards:get': boardsChannels.get,
  'boards:save': boardsChannels.save,
  'boards:rename': boardsChannels.rename,
  'boards:duplicate': boardsChannels.duplicate,
  'boards:delete': boardsChannels.delete,
  'boards:restore': boardsChannels.restore,
  'boards:open': boardsChannels.open,
  'boards:import': boardsChannels.import,
  'boards:export': boardsChannels.export,
  'boards:exportFile': boardsChannels.exportFile,
  'analysis:openFile': analysisChannels.openFile,
  'analysis:openExport': analysisChannels.openExport,
  'analysis:files': analysisChannels.files,
  'analysis:pivot': analysisChannels.pivot,
  'analysis:window': analysisChannels.window,
  'analysis:sql': analysisChannels.sql,
  'analysis:savePivot': analysisChannels.savePivot,
  'analysis:saveSql': analysisChannels.saveSql,
  'analysis:close': analysisChannels.close,
} as const

export type Channels = typeof channels
export type ChannelName = keyof Channels
export type ChannelInput<C extends ChannelName> = z.input<Channels[C]['input']>
export type ChannelParsedInput<C extends ChannelName> = z.output<Channels[C]['input']>
export type ChannelResult<C extends ChannelName> = z.output<Channels[C]['output']>
export const channelNames = Object.keys(channels) as ChannelName[]

/** The shape of window.api. */
export type Api = ApiOf<Channels, typeof events>

export * from './primitives'
export * from './errors'
export * from './app'
export * from './commands'
export * from './profiles'
export * from './entities'
export * from './bulk'
export * from './events'
export * from './report-definition'
export * from './pivot-layout'
export * from './pivot-file'
export * from './reports'
export * from './presets'
export * from './exports'
export * from './schedules'
export * from './alerts'
export * from './boards'
export * from './analysis'
export { splitChannel } from './api'
