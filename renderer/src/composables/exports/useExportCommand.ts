import { useCommandWhile } from '../shell/useCommandWhile'
import { useExportsStore } from '../../stores/exports'
import { useNavigationStore } from '../../stores/navigation'
import { useWorkspaceStore } from '../../stores/workspace'

/**
 * The `export` command (menu, palette, Ctrl/Cmd+E) from any section: it goes to Reports and asks
 * the builder to open Export… for its report there (ExportButton answers, and handles the command
 * itself while Reports is shown). The shell only flags the request, so the builder and the dialog
 * stay in Reports' lazily loaded code. Offered only with a connection open: without one there is
 * no report to export.
 */
export function useExportCommand(): void {
  const exports = useExportsStore()
  const navigation = useNavigationStore()
  const workspace = useWorkspaceStore()
  useCommandWhile(
    'export',
    () => workspace.active !== null,
    () => {
      exports.builderExportRequested = true
      navigation.open('reports')
    },
  )
}
