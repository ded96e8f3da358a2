import { ref } from 'vue'
import { newScheduleForm, type ScheduleForm } from '../../domain/schedules/form'
import { useWorkspaceStore } from '../../stores/workspace'

/** The schedule form opened from a board ("Schedule…" on its row or its toolbar); one for the Boards view. */
const form = ref<ScheduleForm | null>(null)

export function useBoardSchedule() {
  const workspace = useWorkspaceStore()
  return {
    form,
    /** Opens the schedule form with this board preselected, on the active connection. */
    open(board: string): void {
      form.value = newScheduleForm(workspace.activeProfileId, { kind: 'board', name: board })
    },
  }
}
