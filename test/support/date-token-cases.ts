/**
 * One table of the reporting date grammar's cases, read by the app's resolver tests
 * (main/services/reports/dates.ts) and the demo backend's (main/sandbox/reporting/dates.ts):
 * both must make the same decisions, so both are held to the same cases.
 */

/** [token, today, resolved day] */
export type DateTokenCase = readonly [token: string, today: string, expected: string]

/** Every form of the grammar. */
export const grammarCases: readonly DateTokenCase[] = [
  ['2024-02-29', '2024-06-15', '2024-02-29'],
  ['today', '2024-06-15', '2024-06-15'],
  ['yesterday', '2024-03-01', '2024-02-29'],
  ['-0d', '2024-06-15', '2024-06-15'],
  ['-10d', '2024-06-15', '2024-06-05'],
  ['-10days', '2024-06-15', '2024-06-05'],
  ['-1m', '2024-06-15', '2024-05-15'],
  ['-13months', '2024-06-15', '2023-05-15'],
  ['-0m_first', '2024-06-15', '2024-06-01'],
  ['-0m_last', '2024-06-15', '2024-06-30'],
  ['-6m_first', '2024-06-15', '2023-12-01'],
  ['-6months_first', '2024-06-15', '2023-12-01'],
  ['-1m_last', '2024-06-15', '2024-05-31'],
  ['-6month_last', '2024-06-15', '2023-12-31'],
  ['-6months_last', '2024-06-15', '2023-12-31'],
]

/** "N months back" lands on the end of a shorter month, leap years included. */
export const monthEndCases: readonly DateTokenCase[] = [
  ['-1m', '2024-03-31', '2024-02-29'],
  ['-1m', '2023-03-31', '2023-02-28'],
  ['-13m', '2024-03-31', '2023-02-28'],
  ['-12m', '2024-02-29', '2023-02-28'],
  ['-48m', '2024-02-29', '2020-02-29'],
  ['-1m', '2024-05-31', '2024-04-30'],
  ['-1m_last', '2024-03-31', '2024-02-29'],
  ['-1m_last', '2023-03-10', '2023-02-28'],
  ['-1m_first', '2024-01-15', '2023-12-01'],
  ['-0m_last', '2100-02-10', '2100-02-28'],
]

/** `-Nd_m_first`: the first day of the month holding today minus N days (N may be positive). */
export const monthOfDayCases: readonly DateTokenCase[] = [
  // The vendor's own table, for 2021-10-12.
  ['-15d_m_first', '2021-10-12', '2021-09-01'],
  ['0d_m_first', '2021-10-12', '2021-10-01'],
  ['-0d_m_first', '2021-10-12', '2021-10-01'],
  ['15d_m_first', '2021-10-12', '2021-10-01'],
  ['-100d_m_first', '2021-10-12', '2021-07-01'],
  ['30d_m_first', '2021-10-12', '2021-11-01'],
  // "Month of yesterday": on the 1st it is the whole previous month, across a year end too.
  ['-1d_m_first', '2024-07-01', '2024-06-01'],
  ['-1d_m_first', '2024-07-02', '2024-07-01'],
  ['-1d_m_first', '2024-01-01', '2023-12-01'],
  // Month ends, year ends and leap days.
  ['1d_m_first', '2024-01-31', '2024-02-01'],
  ['-31d_m_first', '2024-03-31', '2024-02-01'],
  ['1d_m_first', '2023-12-31', '2024-01-01'],
  // 2024 is a leap year: 28 Feb + 1 day is still February; in 2023 it is March.
  ['1d_m_first', '2024-02-28', '2024-02-01'],
  ['1d_m_first', '2023-02-28', '2023-03-01'],
  ['-1d_m_first', '2024-03-01', '2024-02-01'],
  ['-366d_m_first', '2024-03-01', '2023-03-01'],
  ['-365d_m_first', '2024-03-01', '2023-03-01'],
  ['-367d_m_first', '2024-03-01', '2023-02-01'],
  // 1900 is not a leap year, 2000 is.
  ['1d_m_first', '2000-02-28', '2000-02-01'],
  ['1d_m_first', '1900-02-28', '1900-03-01'],
]

/** Refused, with a sentence, on any day. */
export const invalidTokens: readonly string[] = [
  '2023-02-29',
  '2024-00-10',
  '2024-13-01',
  'tomorrow',
  '-d',
  '-1y',
  '-1d_last',
  '+1d',
  '2024-6-1',
  '1d',
  '-1m_m_first',
  '-1days_m_first',
  '+1d_m_first',
  'd_m_first',
  '-1d_m_last',
  '--1d_m_first',
  '',
]
