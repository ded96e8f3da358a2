export type ReportStatus = 'bad_request' | 'timeout' | 'access_error' | 'internal_error'

/** A failed reporting request: the body is `{status, reason}`, whatever the HTTP code. */
export class ReportError extends Error {
  constructor(
    readonly status: ReportStatus,
    reason: string,
  ) {
    super(reason)
  }
}

export function badRequest(reason: string): ReportError {
  return new ReportError('bad_request', reason)
}

/** HTTP codes of reporting errors; clients must read `status` from the body anyway. */
export const HTTP_CODE_OF_STATUS: Record<ReportStatus, number> = {
  bad_request: 400,
  access_error: 403,
  internal_error: 500,
  timeout: 504,
}
