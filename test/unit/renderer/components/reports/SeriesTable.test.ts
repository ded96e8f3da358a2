// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest'
import { defineComponent, h } from 'vue'
import { flushPromises, mount } from '@vue/test-utils'
import { NMessageProvider } from 'naive-ui'
import type { ChartField } from '../../../../../common/charts/chart-shapes'
import SeriesTable from '../../../../../renderer/src/components/reports/SeriesTable.vue'
import { result } from '../../reports/fixtures'

const fields: ChartField[] = [{ name: 'impressions', displayType: 'int', precision: 0 }]

const mountTable = () =>
  mount(
    defineComponent({
      render: () => h(NMessageProvider, null, { default: () => h(SeriesTable, { result, fields, colors: new Map(), hidden: [] }) }),
    }),
    { attachTo: document.body },
  )

describe('the series table', () => {
  it('shows each line total, average, min and max in their columns, formatted as the field says', async () => {
    const wrapper = mountTable()
    await flushPromises()
    const cells = (key: string) =>
      wrapper
        .get(`[data-test="series-row"][data-key="${key}"]`)
        .findAll('td')
        .map((cell) => cell.text())
    // France misses a day: its average is of the two days it has.
    expect(cells('impressions|FR').slice(1, 5)).toEqual(['40', '20', '10', '30'])
    expect(cells('impressions|DE').slice(1, 5)).toEqual(['180', '60', '50', '70'])
    // A whole-number field shows whole numbers: Total's average, 73.3, reads 73.
    expect(cells('impressions|__total__').slice(1, 5)).toEqual(['220', '73', '60', '100'])
    wrapper.unmount()
  })
})
