import { ref, type Ref } from 'vue'
import type { Entity } from '@contract'
import { errorMessage } from '../../api/bridge'
import { useAppStore } from '../../stores/app'
import { useEntitiesStore } from '../../stores/entities'
import type { EntityColumn } from '../../domain/entities/columns'

/**
 * Exports the table as shown (its rows in display order, its columns) through main: a save
 * dialog in the app, a path asked for in a small dialog in the web host.
 */
export function useCsvExport(options: {
  profileId: Ref<string | null>
  kind: Ref<string>
  rows: Ref<readonly Entity[]>
  columns: Ref<EntityColumn[]>
  notify: (kind: 'success' | 'error', text: string) => void
}) {
  const store = useEntitiesStore()
  const app = useAppStore()
  const state = ref<{ show: boolean; busy: boolean; error: string | null }>({ show: false, busy: false, error: null })

  async function run(path?: string): Promise<void> {
    const profile = options.profileId.value
    if (!profile) return
    // Without a save dialog (the web host) the user types the file's path.
    if (!app.capabilities.nativeSaveDialog && !path) {
      state.value = { show: true, busy: false, error: null }
      return
    }
    state.value = { ...state.value, busy: true, error: null }
    try {
      const ids = options.rows.value.map((row) => row.id)
      const columns = options.columns.value.map((column) => ({ key: column.key, title: column.title }))
      const result = await store.exportCsv(profile, options.kind.value, ids, columns, path)
      state.value = { show: false, busy: false, error: null }
      if (result) options.notify('success', `Exported ${result.rows.toLocaleString('en-US')} ${result.rows === 1 ? 'row' : 'rows'} to ${result.path}`)
    } catch (error) {
      // In the dialog the message stays next to the path; otherwise it is a toast.
      state.value = { show: state.value.show, busy: false, error: errorMessage(error) }
      if (!state.value.show) options.notify('error', errorMessage(error))
    }
  }

  return { state, run }
}
