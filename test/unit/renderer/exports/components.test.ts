// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest'
import { nextTick } from 'vue'
import { mount } from '@vue/test-utils'
import type { ExportEstimate } from '@contract'
import ExportCaps from '../../../../renderer/src/components/exports/ExportCaps.vue'
import ExportJobItem from '../../../../renderer/src/components/exports/ExportJobItem.vue'
import ExportPreviewDialog from '../../../../renderer/src/components/exports/ExportPreviewDialog.vue'
import type { ShownJob } from '../../../../renderer/src/stores/exports'

const job = (change: Partial<ShownJob> = {}): ShownJob => ({
  id: 'job-1',
  profileId: 'p1',
  preset: 'Weekly',
  project: 'demo',
  report: 'supply',
  format: 'csv',
  fileName: 'Weekly.csv',
  folderName: 'exports',
  state: 'done',
  createdAt: '2026-02-05T08:00:00.000Z',
  startedAt: '2026-02-05T08:00:00.000Z',
  endedAt: '2026-02-05T08:00:02.000Z',
  bytes: 2048,
  rows: 1_000_001,
  durationMs: 2_000,
  capped: true,
  notes: ['The platform capped this export at 1,000,000 rows: its last row, Others, sums the rows past them.'],
  error: null,
  bytesPerSecond: 0,
  elapsedMs: 2_000,
  ...change,
})
const buttons = (wrapper: ReturnType<typeof mount>): string[] => wrapper.findAll('button').map((button) => button.attributes('data-test') ?? '')

describe('ExportJobItem', () => {
  it('a finished csv: figures, the capped note, Preview, and Open / Show in folder only where the host has folders', async () => {
    const wrapper = mount(ExportJobItem, { props: { job: job(), expectedRows: null, canOpenFolders: true } })
    expect(wrapper.get('[data-test="export-job-figures"]').text()).toBe('2.0 KB · 1,000,001 rows · 2.0 s')
    expect(wrapper.get('[data-test="export-job-note"]').text()).toContain('capped this export at 1,000,000 rows')
    expect(buttons(wrapper)).toEqual(['export-job-preview', 'export-job-analyse', 'export-job-open', 'export-job-reveal'])
    await wrapper.get('[data-test="export-job-reveal"]').trigger('click')
    expect(wrapper.emitted('reveal')).toHaveLength(1)
    await wrapper.get('[data-test="export-job-analyse"]').trigger('click')
    expect(wrapper.emitted('analyse')).toHaveLength(1)

    // Opening in analysis needs no folders: main reads the job's file itself.
    const web = mount(ExportJobItem, { props: { job: job({ format: 'xlsx', rows: null }), expectedRows: null, canOpenFolders: false } })
    expect(buttons(web)).toEqual(['export-job-analyse'])
    expect(web.get('[data-test="export-job-where"]').text()).toBe("In the exports folder of AdOps Desk's data.")
  })

  it("a board's PDF page: named by its board, opened or shown, neither previewed nor analysed (issue 39)", () => {
    const page = job({
      format: 'pdf',
      board: 'Morning delivery',
      preset: null,
      project: '',
      report: '',
      fileName: 'Morning delivery.pdf',
      rows: null,
      capped: null,
      notes: [],
    })
    const wrapper = mount(ExportJobItem, { props: { job: page, expectedRows: null, canOpenFolders: true } })
    expect(wrapper.text()).toContain('Board “Morning delivery” · pdf')
    expect(buttons(wrapper)).toEqual(['export-job-open', 'export-job-reveal'])
  })

  it('a running job: bar, rate, Cancel; a failed one: its sentence and nothing to open', async () => {
    const running = mount(ExportJobItem, {
      props: {
        job: job({ state: 'running', rows: 250, bytesPerSecond: 4096, elapsedMs: 500, notes: [], capped: null }),
        expectedRows: 1_000,
        canOpenFolders: true,
      },
    })
    expect(running.get('[data-test="export-progress"]').attributes('data-percent')).toBe('25')
    expect(running.get('[data-test="export-job-figures"]').text()).toBe('2.0 KB · 250 rows · 4.0 KB/s · 0.5 s')
    expect(buttons(running)).toEqual(['export-job-cancel'])
    await running.get('[data-test="export-job-cancel"]').trigger('click')
    expect(running.emitted('cancel')).toHaveLength(1)

    const failed = mount(ExportJobItem, {
      props: { job: job({ state: 'failed', error: 'The disk is full: nothing was saved.', notes: [] }), expectedRows: null, canOpenFolders: true },
    })
    expect(failed.get('[data-test="export-job-error"]').text()).toBe('The disk is full: nothing was saved.')
    expect(failed.find('[data-test="export-progress"]').exists()).toBe(false)
    expect(buttons(failed)).toEqual([])
  })
})

describe('ExportCaps', () => {
  const estimate = (change: Partial<ExportEstimate> = {}): ExportEstimate => ({
    cap: 1_000_000,
    othersRow: true,
    rules: ['A csv file holds at most 1,000,000 rows.', 'Exports split by two or more keys are refused over the cap.'],
    rows: { count: 1_200_000, atLeast: false },
    note: null,
    keys: ['country'],
    ...change,
  })

  it('explains the caps and the estimate, and what happens over the cap', () => {
    const one = mount(ExportCaps, { props: { estimate: estimate(), loading: false, failure: null, keyCount: 1 } })
    expect(one.findAll('[data-test="export-rule"]')).toHaveLength(2)
    expect(one.get('[data-test="export-estimate-rows"]').text()).toBe('1,200,000 rows')
    expect(one.get('[data-test="export-over-cap"]').text()).toContain('end with an Others row')

    const several = mount(ExportCaps, {
      props: { estimate: estimate({ rows: { count: 1_200_000, atLeast: true } }), loading: false, failure: null, keyCount: 2 },
    })
    expect(several.get('[data-test="export-estimate-rows"]').text()).toBe('At least 1,200,000 rows')
    expect(several.get('[data-test="export-over-cap"]').text()).toContain('will refuse this export')

    const under = mount(ExportCaps, {
      props: {
        estimate: estimate({ rows: { count: 7, atLeast: false }, note: '7 rows (one per value of country).' }),
        loading: false,
        failure: null,
        keyCount: 1,
      },
    })
    expect(under.get('[data-test="export-estimate-note"]').text()).toBe('7 rows (one per value of country).')
    expect(under.find('[data-test="export-over-cap"]').exists()).toBe(false)
  })
})

describe('ExportPreviewDialog', () => {
  it("shows main's notes about what the preview left out, and counts the rows it has", async () => {
    const preview = {
      fileName: 'hostile.csv',
      columns: ['name'],
      rows: [['x…']],
      more: true,
      notes: ['Cells longer than 1,000 characters are cut and end with …'],
    }
    const wrapper = mount(ExportPreviewDialog, { props: { show: true, preview, loading: false, error: null }, attachTo: document.body })
    await nextTick()
    expect(document.body.querySelector('[data-test="export-preview-summary"]')?.textContent).toBe('The first 1 rows; the file has more.')
    expect(document.body.querySelector('[data-test="export-preview-note"]')?.textContent).toContain('cut and end with …')
    wrapper.unmount()
  })
})
