/** Every flag the command line knows, for node:util parseArgs, with the words `--help` shows. */
export const optionSpecs = {
  help: { type: 'boolean', short: 'h' },
  'user-data': { type: 'string' },
  profile: { type: 'string' },
  'base-url': { type: 'string' },
  'auth-url': { type: 'string' },
  'report-url': { type: 'string' },
  'service-id': { type: 'string' },
  'report-service-id': { type: 'string' },
  username: { type: 'string' },
  format: { type: 'string' },
  'page-size': { type: 'string' },
  data: { type: 'string' },
  request: { type: 'string' },
  out: { type: 'string' },
  project: { type: 'string' },
  slicer: { type: 'string' },
  progress: { type: 'boolean' },
  preset: { type: 'string' },
  metric: { type: 'string' },
  drop: { type: 'string' },
  rise: { type: 'string' },
  z: { type: 'string' },
  'min-baseline': { type: 'string' },
  weeks: { type: 'string' },
  'lag-hours': { type: 'string' },
  match: { type: 'string' },
  'dry-run': { type: 'boolean' },
  apply: { type: 'boolean' },
  since: { type: 'string' },
  batch: { type: 'string' },
} as const

export type OptionName = keyof typeof optionSpecs
export type OptionValues = { [Name in OptionName]?: (typeof optionSpecs)[Name]['type'] extends 'boolean' ? boolean : string }

export const optionHelp: Record<OptionName, string> = {
  help: 'show help for the command',
  'user-data': "folder with saved connections (default: the app's; env ADOPS_USER_DATA)",
  profile: 'use the saved connection with this name (or id)',
  'base-url': 'workflow API address, {base_url}',
  'auth-url': 'token service address, {auth_url}',
  'report-url': 'reporting API address, {report_url}',
  'service-id': 'service id to sign in to',
  'report-service-id': 'the reporting service id, when it differs',
  username: 'sign in with this user; the password comes from env ADOPS_PASSWORD (without it: a permanent token from env ADOPS_TOKEN)',
  format: 'json (default) or csv',
  'page-size': 'ask the platform for pages of this many entities (it decides the default)',
  data: 'JSON file with the entity, or - for standard input',
  request: 'JSON file with the request as in the spec (without the token), or - for standard input',
  out: 'file to write; written whole or not at all',
  project: 'project name',
  slicer: 'report (slicer) name',
  progress: 'show progress on standard error even when it is not a terminal',
  preset: "a saved preset's name, or a preset file (.json)",
  metric: 'the data field an alert rule watches',
  drop: 'fire on a fall of at least PCT percent against the baseline',
  rise: 'fire on a rise of at least PCT percent against the baseline',
  z: 'the least robust z-score that fires (default 3)',
  'min-baseline': 'do not judge buckets whose baseline is below N (default 0)',
  weeks: 'same weekdays looked back at for the baseline (default 4)',
  'lag-hours': "hours the platform's data runs behind; newer buckets are not judged (default: the app's setting, 4)",
  match: 'match rows to existing entities by id or external_id (default: id when the file has an id column)',
  'dry-run': 'print the plan, one JSON line per row, and send nothing',
  apply: 'send the plan, printing one JSON line per row as its outcome arrives',
  since: 'only changes at or after this date or time (ISO, e.g. 2026-11-01)',
  batch: 'the whole batch with this id (from "changes list")',
}

/** Flags every command accepts. */
export const globalOptions: readonly OptionName[] = ['help', 'user-data']

/** Flags that say where the platform is and who signs in. */
export const connectionOptions: readonly OptionName[] = ['profile', 'base-url', 'auth-url', 'report-url', 'service-id', 'report-service-id', 'username']
