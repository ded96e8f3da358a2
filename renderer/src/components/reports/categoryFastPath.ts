// The declaration is a global one (a module name), which only a reference brings along wherever this file is compiled.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="./echarts-internals.d.ts" />
import Cartesian2D from 'echarts/lib/coord/cartesian/Cartesian2D.js'

/**
 * ECharts lays out every point of every line through `Cartesian2D.dataToPoint`. On two value
 * axes it takes a fast path (one affine transform per point); on a category x-axis it walks the
 * axis, the scale and a linear map for each coordinate, which was a third of a legend toggle
 * (50 lines × a point per pixel column, all laid out again at each toggle).
 *
 * A category axis maps a category's index to pixels linearly too, so this gives it the same fast
 * path: after ECharts has computed (or declined) its own transform, a grid with a category x and a
 * value y gets the transform measured from ECharts' own slow path at the ends of both scales, and
 * keeps it only if a category in the middle agrees within a hundredth of a pixel. Only
 * `dataToPoint` with finite numbers uses it: a category given by its text (a marker) and
 * `pointToData` (the tooltip, which must land on a whole category) stay on ECharts' own path.
 */
type Transformed = { _transform: number[] | null }

const TOLERANCE_PX = 0.01

export function installCategoryFastPath(prototype: Cartesian2D = Cartesian2D.prototype): void {
  const own = prototype.calcAffineTransform
  if ((own as { categoryFastPath?: true }).categoryFastPath) return
  const patched = function (this: Cartesian2D): void {
    own.call(this)
    const self = this as unknown as Transformed
    if (self._transform) return
    const x = this.getAxis('x').scale
    const y = this.getAxis('y').scale
    if (x.type !== 'ordinal' || y.type !== 'interval') return
    const [x0 = NaN, x1 = NaN] = x.getExtent()
    const [y0 = NaN, y1 = NaN] = y.getExtent()
    if (!(x1 - x0) || !(y1 - y0)) return
    const [startX = NaN, startY = NaN] = this.dataToPoint([x0, y0])
    const [endX = NaN, endY = NaN] = this.dataToPoint([x1, y1])
    const scaleX = (endX - startX) / (x1 - x0)
    const scaleY = (endY - startY) / (y1 - y0)
    const translateX = startX - x0 * scaleX
    const translateY = startY - y0 * scaleY
    // A category in the middle (a whole one: ECharts rounds a fraction to its category, and points
    // are always whole indexes) by ECharts' own path and by the transform: a non-linear mapping keeps the slow path.
    const middleX = Math.round((x0 + x1) / 2)
    const middleY = (y0 + y1) / 2
    const [exactX = NaN, exactY = NaN] = this.dataToPoint([middleX, middleY])
    const agrees = Math.abs(exactX - (scaleX * middleX + translateX)) < TOLERANCE_PX && Math.abs(exactY - (scaleY * middleY + translateY)) < TOLERANCE_PX
    const transform = [scaleX, 0, 0, scaleY, translateX, translateY]
    if (transform.every(Number.isFinite) && agrees) self._transform = transform
  }
  prototype.calcAffineTransform = Object.assign(patched, { categoryFastPath: true as const })
}
