import type { ReportDefinition } from '@contract'
import { assemble, type PasteResult } from './assemble'
import { readPaste } from './dialect'

/**
 * "Paste a request": a platform request body (time_series, audience or export, as the API docs
 * and scripts show it, JSON or Python/JavaScript literals, or a whole curl command) or a link to
 * the platform's web reporting UI becomes a builder definition, with one sentence per thing that
 * could not be read. Pure: no network, no `info`; the run checks names against the report.
 *
 * What the paste does not say is taken from `base` (the builder's state) only where a request
 * cannot say it (chart type, comparison, the other tab's settings); what a request leaves out on
 * purpose (no filters, no sort) is empty, so the builder becomes the pasted request.
 *
 * The stages, one file each: dialect (what was pasted) → json-body or web-link (read it into a
 * Reading, with fields and aliases) → assemble (lay it over the base and check it).
 */
export function parsePastedRequest(text: string, base: Partial<ReportDefinition> = {}): PasteResult {
  return assemble(readPaste(text), base)
}

export type { PasteResult } from './assemble'
export { conditionMatchOf, filterMatchOf } from './aliases'
export { defaultDefinitionParts } from './limits'
