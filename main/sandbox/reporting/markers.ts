import { bucketOfLocalHour, formatBucket } from './dates'
import type { Granularity } from './dates'

/** A chart marker as stored: when it points to and who wrote it. Hours are UTC hours since 1970. */
export interface StoredMarker {
  marker_id: number
  hour: number
  createdHour: number
  editedHour: number
  author: string
  first_name: string
  last_name: string
  message: string
}

export interface ServedMarker {
  edited: string
  created: string
  first_name: string
  last_name: string
  author: string
  date_ts: number
  referer: string
  granularity: string
  date: string
  message: string
  marker_id: number
}

const MARKER_NOTES: ReadonlyArray<readonly [number, number, string, string, string, string]> = [
  // day offset from the first data day, hour of day, login, first, last, message
  [35, 9, 'demo', 'Dana', 'Morgan', 'Header bidding timeout raised from 800 ms to 1200 ms'],
  [96, 14, 'viewer', 'Victor', 'Lee', 'Floor prices lowered 10% on mobile inventory'],
  [171, 11, 'demo', 'Dana', 'Morgan', 'New demand partner enabled in all regions'],
  [244, 16, 'demo', 'Dana', 'Morgan', 'Ad server outage, 40 minutes'],
  [311, 8, 'viewer', 'Victor', 'Lee', 'Holiday campaign season starts'],
  [386, 10, 'demo', 'Dana', 'Morgan', 'Consent banner changed on EU sites'],
]

export function seedMarkers(firstDay: number): StoredMarker[] {
  return MARKER_NOTES.map(([offset, hourOfDay, author, first, last, message], index) => {
    const hour = (firstDay + offset) * 24 + hourOfDay
    return { marker_id: 101 + index, hour, createdHour: hour + 2, editedHour: hour + 26, author, first_name: first, last_name: last, message }
  })
}

/** The marker as a row of the given granularity and time zone shows it. */
export function presentMarker(marker: StoredMarker, granularity: Granularity, timezone: number, referer: string): ServedMarker {
  const format = (hour: number): string => formatBucket(granularity, bucketOfLocalHour(granularity, hour + timezone))
  return {
    edited: format(marker.editedHour),
    created: format(marker.createdHour),
    first_name: marker.first_name,
    last_name: marker.last_name,
    author: marker.author,
    date_ts: marker.hour * 3600,
    referer,
    granularity: `granularity_${granularity}`,
    date: format(marker.hour),
    message: marker.message,
    marker_id: marker.marker_id,
  }
}
