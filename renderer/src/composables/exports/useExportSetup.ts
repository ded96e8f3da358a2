import { ref, shallowRef, watch, type Ref } from 'vue'
import type { ExportSource, ReportDefinition, ReportInfoView } from '@contract'
import { api, errorMessage, unwrap } from '../../api/bridge'
import { defaultForm, type ExportForm } from '../../domain/exports/options'
import { useReportsStore } from '../../stores/reports'

export interface ExportContext {
  definition: ReportDefinition
  info: ReportInfoView
}

/**
 * What the Export… dialog starts from: the source's definition (the builder's, or a preset's
 * read from main), its report's `info` for the field pickers, and the form filled with the
 * definition's defaults. The builder's own report is not asked for again.
 */
export function useExportSetup(profileId: Ref<string | null>, source: Ref<ExportSource | null>) {
  const reports = useReportsStore()
  const context = shallowRef<ExportContext | null>(null)
  const form = ref<ExportForm | null>(null)
  const loading = ref(false)
  const failure = ref<string | null>(null)
  let sequence = 0

  async function infoOf(profile: string, definition: ReportDefinition): Promise<ReportInfoView> {
    const shown = reports.info
    if (shown && shown.project === definition.project && shown.report === definition.report) return shown
    return unwrap(api().reports.info({ profileId: profile, project: definition.project, report: definition.report }))
  }

  async function load(profile: string, chosen: ExportSource): Promise<void> {
    const mine = ++sequence
    loading.value = true
    failure.value = null
    context.value = null
    form.value = null
    try {
      const definition = chosen.kind === 'definition' ? chosen.definition : (await unwrap(api().presets.get({ name: chosen.name }))).definition
      const info = await infoOf(profile, definition)
      if (mine !== sequence) return
      context.value = { definition, info }
      // Without a breakdown the keys start as main's choice; the estimate fills them in (useExportEstimate).
      form.value = defaultForm(definition)
    } catch (error) {
      if (mine === sequence) failure.value = `This report cannot be exported now: ${errorMessage(error)}`
    } finally {
      if (mine === sequence) loading.value = false
    }
  }

  watch(
    [profileId, source],
    ([profile, chosen]) => {
      if (profile && chosen) void load(profile, chosen)
    },
    { immediate: true },
  )

  return { context, form, loading, failure }
}
