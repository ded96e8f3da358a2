import { parseArgs } from 'node:util'
import { isLoopbackAddress } from './guard'
import { isRetryProfile, retryProfiles, type RetryProfile } from './server'

export const PREVIEW_USAGE = 'usage: npm run preview:web -- [--port P] [--host 127.0.0.1] [--user-data DIR] [--renderer DIR]'

/** What `preview:web` is asked to do, read from its arguments and environment. */
export interface PreviewOptions {
  port: number
  host: string
  /** null: a temporary folder, removed on exit. */
  userDataDir: string | null
  /** null: the built renderer beside the host (layout.ts). */
  rendererDir: string | null
  retryProfile: RetryProfile
  /** ADOPS_ENGINE_WARM_UP=off: the analysis engine loads at the first analysis, not a moment after start. */
  engineWarmUp: boolean
}

export type PreviewArguments = { kind: 'run'; options: PreviewOptions } | { kind: 'help'; text: string } | { kind: 'usage-error'; message: string }

/**
 * Reads the preview's command line without starting anything (preview-web.ts exits 2 on a
 * usage error with its message): tests check every refusal in-process.
 */
export function readPreviewArguments(argv: readonly string[], environment: Readonly<Record<string, string | undefined>>): PreviewArguments {
  let values: { port?: string; host?: string; 'user-data'?: string; renderer?: string; help?: boolean }
  try {
    ;({ values } = parseArgs({
      args: [...argv],
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        'user-data': { type: 'string' },
        renderer: { type: 'string' },
        help: { type: 'boolean' },
      },
      strict: true,
    }))
  } catch (error) {
    return { kind: 'usage-error', message: `${(error as Error).message}\n${PREVIEW_USAGE}` }
  }
  if (values.help) return { kind: 'help', text: PREVIEW_USAGE }
  const port = Number(values.port ?? '5183')
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    return { kind: 'usage-error', message: `--port must be a whole number from 0 to 65535, got "${values.port}"\n${PREVIEW_USAGE}` }
  }
  const host = values.host ?? '127.0.0.1'
  if (!isLoopbackAddress(host)) {
    return {
      kind: 'usage-error',
      message: `--host must be a loopback address (127.0.0.1, localhost or ::1), got "${host}": the preview serves your connections and secrets to whoever can reach it.\n${PREVIEW_USAGE}`,
    }
  }
  const retryProfile = environment.ADOPS_RETRY_PROFILE ?? 'production'
  if (!isRetryProfile(retryProfile)) {
    return { kind: 'usage-error', message: `ADOPS_RETRY_PROFILE must be one of ${Object.keys(retryProfiles).join(', ')}, got "${retryProfile}"` }
  }
  const warmUp = environment.ADOPS_ENGINE_WARM_UP ?? 'on'
  if (warmUp !== 'on' && warmUp !== 'off') return { kind: 'usage-error', message: `ADOPS_ENGINE_WARM_UP must be on or off, got "${warmUp}"` }
  return {
    kind: 'run',
    options: { port, host, userDataDir: values['user-data'] ?? null, rendererDir: values.renderer ?? null, retryProfile, engineWarmUp: warmUp === 'on' },
  }
}
