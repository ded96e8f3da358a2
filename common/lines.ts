/** The chart line the platform sends for the total (`chart_lines: ['__total__']`). */
export const TOTAL_LINE = '__total__'

/** Several keys' values of one chart line are joined by U+0002, as the Reporting API wants them. */
export const LINE_SEPARATOR = '\u0002'
