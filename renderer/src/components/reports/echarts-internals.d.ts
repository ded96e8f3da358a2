/** ECharts ships its internal modules' types under types/src; this names one for its lib path. */
declare module 'echarts/lib/coord/cartesian/Cartesian2D.js' {
  import Cartesian2D from 'echarts/types/src/coord/cartesian/Cartesian2D.js'
  export default Cartesian2D
}
declare module 'echarts/lib/chart/line/poly.js' {
  export { ECPolygon, ECPolyline } from 'echarts/types/src/chart/line/poly.js'
}
