import { computed, ref, watch } from 'vue'
import type { Entity, EntityKindSpec } from '@contract'
import { buildColumns, type EntityColumn } from '../../domain/entities/columns'
import type { Id } from '../../domain/entities/entityForm'
import { referenceOptions } from '../../domain/entities/references'
import { relatedKinds } from '../../domain/entities/related'
import { useTable } from '../../lib/table'
import { useConnectivityStore } from '../../stores/connectivity'
import { useDraftsStore } from '../../stores/drafts'
import { useEntitiesStore } from '../../stores/entities'
import { useWorkspaceStore } from '../../stores/workspace'
import { emptyListText } from '../../domain/entities/emptyList'

const KIND_KEY = 'adops.entities.kind'

function rememberedKind(): string | null {
  try {
    return globalThis.localStorage?.getItem(KIND_KEY) ?? null
  } catch {
    return null
  }
}

/**
 * The data side of the entities screen: which profile and kind are shown, the kind's spec,
 * its rows and columns (with reference names from the other kinds' mirrors), the table's
 * sort/search/filters, and the loading of everything the kind needs.
 */
export function useKindScreen() {
  const store = useEntitiesStore()
  const connectivity = useConnectivityStore()
  const drafts = useDraftsStore()
  const workspace = useWorkspaceStore()
  // The shell may not have restored the last active connection yet.
  if (!workspace.restored && !workspace.activating) void workspace.restore()
  const profileId = computed(() => workspace.activeProfileId)
  const kind = ref(rememberedKind() ?? 'publishers')
  const opened = ref<string[]>([])

  const spec = computed<EntityKindSpec>(() => store.specFor(kind.value, profileId.value))
  const current = computed(() => (profileId.value ? store.peek(profileId.value, kind.value) : store.peek('', kind.value)))
  const rows = computed(() => current.value.rows)
  const refKinds = computed(() => [
    ...new Set(spec.value.fields.filter((field) => field.type === 'reference' || field.type === 'references').map((field) => field.references ?? field.name)),
  ])
  const names = (refKind: string): Map<string, string> => (profileId.value ? store.names(profileId.value, refKind) : new Map())

  const columns = computed<EntityColumn[]>(() => {
    // Reference names come from other kinds' mirrors: new columns (and fresh caches) when they change.
    for (const refKind of refKinds.value) void (profileId.value && store.peek(profileId.value, refKind).rows)
    return buildColumns(spec.value, names)
  })
  const table = useTable<Entity>(rows, columns)

  const pickerKinds = computed(() => {
    const builtIn = store.kinds.map((item) => ({ kind: item.kind, label: item.label }))
    const extra = opened.value
      .filter((name) => !store.builtInKinds.includes(name))
      .map((name) => ({ kind: name, label: store.specFor(name, profileId.value).label }))
    return [...builtIn, ...extra]
  })

  const readOnly = computed(() => current.value.readOnly)
  const offline = computed(() => (profileId.value ? (connectivity.offline[profileId.value] ?? null) : null))
  /** Why editing is disabled now, or null. */
  const locked = computed(
    () => readOnly.value ?? (offline.value ? `Offline: editing is disabled until the platform can be reached again (${offline.value.reason})` : null),
  )

  // Options of reference selects, built once per list (the form asks on every render).
  const optionCache = new WeakMap<readonly Entity[], Array<{ label: string; value: Id }>>()
  function optionsFor(refKind: string): Array<{ label: string; value: Id }> {
    if (!profileId.value) return []
    const rowsOfKind = store.peek(profileId.value, refKind).rows
    const cached = optionCache.get(rowsOfKind)
    if (cached) return cached
    const options = referenceOptions(rowsOfKind, store.specFor(refKind, profileId.value).titleField)
    optionCache.set(rowsOfKind, options)
    return options
  }

  function choose(next: string): void {
    if (!store.builtInKinds.includes(next) && !opened.value.includes(next)) opened.value = [...opened.value, next]
    kind.value = next
    // Ask for the rows now rather than after the next render: the list opens a frame sooner.
    if (profileId.value) void store.open(profileId.value, next)
    try {
      globalThis.localStorage?.setItem(KIND_KEY, next)
    } catch {
      // Remembering the tab is a nicety.
    }
  }

  watch(
    [profileId, kind, () => store.kinds],
    async ([profile, name]) => {
      if (!profile) return
      await store.loadKinds()
      if (!store.builtInKinds.includes(name) && !opened.value.includes(name)) opened.value = [...opened.value, name]
      if (drafts.profileId !== profile) void drafts.load(profile)
      // The kinds this one links to or from: reference names in the list, related items in the drawer.
      const loads = [store.open(profile, name), ...relatedKinds(spec.value).map((other) => store.open(profile, other))]
      await Promise.all(loads)
    },
    { immediate: true },
  )

  watch([profileId, kind], () => table.clear())

  /** What the list says when it shows no rows. */
  const emptyText = computed(() =>
    emptyListText({
      label: spec.value.label,
      syncing: current.value.sync !== null,
      filtered: table.filtered.value,
      loaded: current.value.loaded,
      syncedAt: current.value.syncedAt,
    }),
  )

  return {
    store,
    connectivity,
    drafts,
    profileId,
    kind,
    spec,
    current,
    rows,
    columns,
    table,
    names,
    pickerKinds,
    readOnly,
    offline,
    locked,
    optionsFor,
    choose,
    emptyText,
  }
}

/** What the entities screen works with: its data, spec, table and loading. */
export type KindScreen = ReturnType<typeof useKindScreen>
