// The declaration is a global one (a module name), which only a reference brings along wherever this file is compiled.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="./echarts-internals.d.ts" />
import { ECPolygon, ECPolyline } from 'echarts/lib/chart/line/poly.js'

/**
 * At every render ECharts' line view sets its line's (and area's) options again (`smooth`,
 * `connectNulls`…) with `setShape`, which marks the shape changed even when nothing did, so the
 * next paint rebuilds every path point by point. A legend toggle renders all 50 lines, and
 * rebuilding their ~500-point paths was a third of the toggle. The view already compares the
 * points themselves and sets them only when they moved.
 *
 * This makes `setShape` a no-op for those lines when every value it is given is a primitive
 * equal to the one the shape holds: the path recorded at the last paint is replayed instead.
 * Anything else (new points, an object or array, which may have been changed in place) marks the
 * shape changed as before.
 */
type Shape = Record<string, unknown>
interface ShapedPath {
  shape: object
  setShape(keyOrValues: string | Shape, value?: unknown): unknown
}

const isPrimitive = (value: unknown): boolean => value === null || (typeof value !== 'object' && typeof value !== 'function')

/** True when setting `values` on `shape` would leave it as it is, by the rule above. */
export function changesNothing(shape: object | undefined, values: Shape): boolean {
  if (!shape) return false
  const current = shape as Shape
  return Object.entries(values).every(([key, value]) => isPrimitive(value) && Object.is(current[key], value))
}

export function installSteadyLinePaths(prototypes: ShapedPath[] = [ECPolyline.prototype, ECPolygon.prototype]): void {
  for (const prototype of prototypes) {
    const own = prototype.setShape
    if ((own as { steady?: true }).steady) continue
    const patched = function (this: ShapedPath, keyOrValues: string | Shape, value?: unknown): unknown {
      const values = typeof keyOrValues === 'string' ? { [keyOrValues]: value } : keyOrValues
      return changesNothing(this.shape, values) ? this : own.call(this, keyOrValues, value)
    }
    prototype.setShape = Object.assign(patched, { steady: true as const })
  }
}
