/**
 * From a record of the fact table to its hour: records are in hour order and the hour is not
 * stored per record, so it is found from the table's hour starts (facts.ts). The table's shape
 * is spelled out here rather than imported: facts.ts imports this file.
 */

/** Hour (since 1970) of one record, by binary search over the hour starts. */
export function hourOfRecord(hourStart: Int32Array, firstHour: number, record: number): number {
  let low = 0
  let high = hourStart.length - 2
  while (low < high) {
    const middle = (low + high + 1) >>> 1
    if ((hourStart[middle] as number) <= record) low = middle
    else high = middle - 1
  }
  return firstHour + low
}

/** Hours of a record list; one forward walk when the list is ascending (it always is here). */
export function hoursOf(facts: { hourStart: Int32Array; firstHour: number }, records: Int32Array): Int32Array {
  const hours = new Int32Array(records.length)
  const starts = facts.hourStart
  let offset = 0
  let previous = -1
  for (let index = 0; index < records.length; index++) {
    const record = records[index] as number
    if (record < previous) offset = 0
    previous = record
    while ((starts[offset + 1] as number) <= record) offset++
    hours[index] = facts.firstHour + offset
  }
  return hours
}
