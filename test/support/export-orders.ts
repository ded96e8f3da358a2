import type { JobOrder } from '../../main/services/exports/job'

/** The order the export tests start from: the demo's supply report as CSV to `target`, no preset, no total line. */
export function supplyCsvOrder(target: string): JobOrder {
  return {
    profileId: 'p1',
    preset: null,
    project: 'demo',
    report: 'supply',
    format: 'csv',
    request: { project_name: 'demo', slicer_name: 'supply' },
    includeTotal: false,
    // The platform's names kept and nothing to type: the file is the platform's bytes.
    columns: { labels: null, dates: {} },
    target,
  }
}
