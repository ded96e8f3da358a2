import { ref, type Ref } from 'vue'
import type { Entity } from '@contract'
import { errorMessage } from '../../api/bridge'
import { useEntitiesStore } from '../../stores/entities'
import type { EntityColumn } from '../../domain/entities/columns'

/**
 * Exports the table as shown (its rows in display order, its columns) through main. Where the
 * file goes is main's to ask: its save dialog in the app, a new name in the exports folder of
 * the web host. The page never names a path and hears back only the file's name.
 */
export function useCsvExport(options: {
  profileId: Ref<string | null>
  kind: Ref<string>
  rows: Ref<readonly Entity[]>
  columns: Ref<EntityColumn[]>
  notify: (kind: 'success' | 'error', text: string) => void
}) {
  const store = useEntitiesStore()
  const busy = ref(false)

  async function run(): Promise<void> {
    const profile = options.profileId.value
    if (!profile || busy.value) return
    busy.value = true
    try {
      const ids = options.rows.value.map((row) => row.id)
      const columns = options.columns.value.map((column) => ({ key: column.key, title: column.title }))
      const result = await store.exportCsv(profile, options.kind.value, ids, columns)
      if (result) options.notify('success', `Exported ${result.rows.toLocaleString('en-US')} ${result.rows === 1 ? 'row' : 'rows'} to ${result.fileName}`)
    } catch (error) {
      options.notify('error', errorMessage(error))
    } finally {
      busy.value = false
    }
  }

  return { busy, run }
}
