// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest'
import { mount } from '@vue/test-utils'
import ChartLegend from '../../../../renderer/src/components/reports/ChartLegend.vue'
import { seriesColors } from '../../../../common/charts/series'
import { result } from './fixtures'

const mountLegend = (hidden: string[] = []) => mount(ChartLegend, { props: { result, colors: seriesColors(result, false), hidden } })

describe('ChartLegend', () => {
  it('lists lines and Total (comparisons follow their line) and says how many are shown', () => {
    const wrapper = mountLegend(['impressions|DE'])
    expect(wrapper.findAll('[data-test="legend-item"]').map((item) => item.attributes('data-key'))).toEqual([
      'impressions|FR',
      'impressions|DE',
      'impressions|__total__',
    ])
    expect(wrapper.get('[data-test="legend-count"]').text()).toBe('2 of 3 shown')
  })

  // Its comparison follows it in the chart (hiddenSeries, drawn-lines.ts): the legend names lines only.
  it('hides a line, and shows it again', async () => {
    const wrapper = mountLegend()
    await wrapper.get('[data-key="impressions|FR"] .toggle').trigger('click')
    expect(wrapper.emitted('update:hidden')?.[0]).toEqual([['impressions|FR']])
    await wrapper.setProps({ hidden: ['impressions|FR'] })
    await wrapper.get('[data-key="impressions|FR"] .toggle').trigger('click')
    expect(wrapper.emitted('update:hidden')?.[1]).toEqual([[]])
  })

  it('shows only one line, and searches by label', async () => {
    const wrapper = mountLegend()
    await wrapper.get('[data-key="impressions|DE"] [data-test="legend-only"]').trigger('click')
    expect(wrapper.emitted('update:hidden')?.[0]).toEqual([['impressions|FR', 'impressions|__total__']])
    await wrapper.get('[data-test="legend-search"] input').setValue('germ')
    expect(wrapper.findAll('[data-test="legend-item"]').map((item) => item.attributes('data-key'))).toEqual(['impressions|DE'])
  })
})
