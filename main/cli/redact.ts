/**
 * Keeps secrets out of what the command line prints about failures: every line for stderr
 * passes through a `Redactor` holding the secrets this run knows (ADOPS_PASSWORD, ADOPS_TOKEN,
 * a saved connection's secret once read), which also hides the user information of any
 * address. The same redactor keeps the log file clean (main/services/logs/redact.ts).
 */
export { createRedactor, type Redactor } from '../services/logs/redact'
