import { curlParts } from '../relaxed-json'
import { parseBody, readBody } from './json-body'
import { notUnderstood, type ReadingKind, type Reading } from './reading'
import { readUrl } from './web-link'

/*
 * The first stage: what was pasted (a curl command, a link to the web UI, or a request body) and
 * which reader takes it. Deciding here, once, lets each reader assume its own dialect.
 */

export function readPaste(text: string): Reading {
  const trimmed = text.trim()
  const curl = curlParts(trimmed)
  if (curl !== null) {
    if (curl.body === null) {
      if (curl.url === null) throw notUnderstood('The curl command has neither a request body (-d) nor a link.')
      return readUrl(curl.url)
    }
    return readBody(parseBody(curl.body), operationOf(curl.url))
  }
  if (/^https?:\/\//i.test(trimmed)) return readUrl(trimmed)
  if (/^(?:(?:var|let|const)\s+)?[\w$.]*\s*=?\s*\{/.test(trimmed)) return readBody(parseBody(trimmed), null)
  throw notUnderstood('Paste a request body (JSON, starting with "{"), a curl command, or a link to a report in the platform\'s web UI.')
}

/** `…/API/v2/time_series` in a curl command says which call the body is for. */
function operationOf(url: string | null): ReadingKind | null {
  const operation = /\/API\/v\d+\/(time_series|audience|export)\b/i.exec(url ?? '')?.[1]?.toLowerCase()
  return operation === 'time_series' || operation === 'audience' || operation === 'export' ? operation : null
}
