import { defineAsyncComponent, type Component } from 'vue'
import AnalyticsOutline from '@vicons/ionicons5/es/AnalyticsOutline'
import AppsOutline from '@vicons/ionicons5/es/AppsOutline'
import BarChartOutline from '@vicons/ionicons5/es/BarChartOutline'
import GitNetworkOutline from '@vicons/ionicons5/es/GitNetworkOutline'
import GridOutline from '@vicons/ionicons5/es/GridOutline'
import ListOutline from '@vicons/ionicons5/es/ListOutline'
import NotificationsOutline from '@vicons/ionicons5/es/NotificationsOutline'
import SettingsOutline from '@vicons/ionicons5/es/SettingsOutline'
import TimerOutline from '@vicons/ionicons5/es/TimerOutline'

/**
 * The sections of the app, each declared once: the rail lists them, the navigation store
 * switches between them, the shell shows their view. Every view's code (and its libraries, a
 * chart library for reports) lands in its own chunk, loaded once the app is idle after its first
 * screen (AppShell's idle read) or on first use, whichever comes first: the first screen does not
 * wait for it, and a first visit rarely does. Only sections that work are listed.
 */
export interface SectionDefinition {
  id: string
  label: string
  icon: Component
  view: Component
  /** Loads the view's code (what `view` loads on first use), to have it ready before the first click. */
  load: () => Promise<unknown>
  /** Works on the active connection: shows the welcome screen until one is chosen. */
  needsWorkspace: boolean
}

/**
 * A view loaded on first use, or before it by `load` with the parts it loads later itself
 * (`alsoLoad`): each module is fetched and run once either way.
 */
function lazy(load: () => Promise<{ default: Component }>, alsoLoad: ReadonlyArray<() => Promise<unknown>> = []): Pick<SectionDefinition, 'view' | 'load'> {
  return { view: defineAsyncComponent(load), load: () => Promise.all([load(), ...alsoLoad.map((more) => more())]) }
}

/** The chart panel and the chart library it brings, loaded by the Reports view after the view itself (ReportsView.vue). */
export const loadChartPanel = () => import('../components/reports/ChartPanel.vue')

export const sections = [
  { id: 'entities', label: 'Entities', icon: GridOutline, ...lazy(() => import('../views/EntitiesView.vue')), needsWorkspace: true },
  {
    id: 'reports',
    label: 'Reports',
    icon: BarChartOutline,
    ...lazy(() => import('../views/ReportsView.vue'), [loadChartPanel]),
    needsWorkspace: true,
  },
  { id: 'connections', label: 'Connections', icon: GitNetworkOutline, ...lazy(() => import('../views/ConnectionsView.vue')), needsWorkspace: false },
  { id: 'settings', label: 'Settings', icon: SettingsOutline, ...lazy(() => import('../views/SettingsView.vue')), needsWorkspace: false },
  // Schedules and alerts are kept on this computer whichever connection is active, so they show without one. Listed
  // after the first four so Ctrl+1…4 (the menu's positional Go commands) keep their sections; the palette reaches them.
  { id: 'schedules', label: 'Schedules', icon: TimerOutline, ...lazy(() => import('../views/SchedulesView.vue')), needsWorkspace: false },
  { id: 'alerts', label: 'Alerts', icon: NotificationsOutline, ...lazy(() => import('../views/AlertsView.vue')), needsWorkspace: false },
  // A board runs its tiles on the active connection and paints the results kept for it.
  {
    id: 'boards',
    label: 'Boards',
    icon: AppsOutline,
    ...lazy(() => import('../views/BoardsView.vue'), [loadChartPanel]),
    needsWorkspace: true,
  },
  // Opened files are analysed on this computer by main's engine: no connection needed.
  { id: 'analysis', label: 'Analysis', icon: AnalyticsOutline, ...lazy(() => import('../views/AnalysisView.vue')), needsWorkspace: false },
  // The change log is the active connection's (every write made from the app, issue 23).
  { id: 'changes', label: 'Change log', icon: ListOutline, ...lazy(() => import('../views/ChangesView.vue')), needsWorkspace: true },
] as const satisfies readonly SectionDefinition[]

export type SectionId = (typeof sections)[number]['id']

/** Where the app opens, and where choosing a connection leads. */
export const HOME_SECTION: SectionId = 'entities'

/** Shown instead of a section that needs a connection while none is active. */
const welcome = lazy(() => import('../views/WelcomeView.vue'))
export const welcomeView: Component = welcome.view
export const loadWelcomeView = welcome.load

export function sectionById(id: SectionId): SectionDefinition {
  return sections.find((section) => section.id === id) ?? sections[0]
}
