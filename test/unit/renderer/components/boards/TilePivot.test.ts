// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import type { OpenTile } from '@contract'
import TileBody from '../../../../../renderer/src/components/boards/TileBody.vue'
import { breakdownChart } from '../../../../support/chart-results'
import { sampleDefinition } from '../../../../support/channel-samples'

describe('a tile drawn as a pivot', () => {
  it("draws the report's pivot grid read-only from the tile's result", async () => {
    setActivePinia(createPinia())
    const tile: OpenTile = {
      id: 'tile-1',
      title: 'Supply',
      view: 'pivot',
      place: { x: 0, y: 0, w: 6, h: 4 },
      preset: 'Supply',
      definition: { ...sampleDefinition, breakdown: ['publisher', 'country'] },
      problem: null,
    }
    const shown = { chart: breakdownChart(), audience: null, ranAt: '2026-11-26T06:00:00.000Z', status: 'idle' as const, error: null }
    const wrapper = mount(TileBody, { props: { tile, shown }, attachTo: document.body })
    await flushPromises()
    const grid = wrapper.find('[role="grid"]')
    expect(grid.exists()).toBe(true)
    expect(grid.attributes('aria-label')).toBe('Pivot of Supply')
    // No layout editor in a tile: the preset's layout is only read.
    expect(wrapper.find('[data-test="pivot-layout"]').exists()).toBe(false)
    wrapper.unmount()
  })
})
