// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest'
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils'
import { NInputNumber } from 'naive-ui'
import { REPORT_LIMITS } from '../../../../common/limits'
import TopCountInput from '../../../../renderer/src/components/reports/TopCountInput.vue'

/** The "Top N" inputs of the builder (lines, categories) hand the definition only whole counts inside their bounds. */
describe('the Top N count input', () => {
  let wrapper: VueWrapper | null = null
  afterEach(() => {
    wrapper?.unmount()
    wrapper = null
  })

  async function typed(value: number | null, bounds: { min: number; max: number } = REPORT_LIMITS.categoryLimit): Promise<number[]> {
    wrapper = mount(TopCountInput, { props: { value: 30, label: 'Categories shown', ...bounds }, attrs: { 'data-test': 'category-limit' } })
    await flushPromises()
    wrapper.findComponent(NInputNumber).vm.$emit('update:value', value)
    await flushPromises()
    return (wrapper.emitted('update') ?? []).map(([count]) => count as number)
  }

  it('emits a typed count rounded and kept inside its bounds', async () => {
    expect(await typed(12.6)).toEqual([13])
    wrapper?.unmount()
    expect(await typed(REPORT_LIMITS.categoryLimit.max + 5)).toEqual([REPORT_LIMITS.categoryLimit.max])
    wrapper?.unmount()
    expect(await typed(0, { min: 1, max: 50 })).toEqual([1])
  })

  it('emits nothing while the box is empty', async () => {
    expect(await typed(null)).toEqual([])
  })

  it('keeps the data-test its field gives it on the input, where the end-to-end tests find it', async () => {
    await typed(null)
    expect(wrapper?.find('[data-test="category-limit"] input').exists()).toBe(true)
  })
})
