import { AppError } from '../errors'
import { signInRejected, type RequestContext } from '../http/errors'
import { sentence } from '../http/reasons'

/**
 * The reporting service's own error model: a `status` in the body other than `success`. The
 * status is the truth whatever the HTTP code was (see docs/architecture.md, "reporting HTTP codes").
 */
export function errorFromReportingStatus(apiStatus: string, reason: string | null, httpStatus: number, context: RequestContext): AppError {
  const details: Record<string, unknown> = { apiStatus, httpStatus, method: context.method, url: context.url }
  if (reason !== null) details.reason = reason
  switch (apiStatus) {
    case 'bad_request':
      return new AppError(
        'validation',
        `The report request was rejected: ${sentence(reason, 'the platform did not say why')} Correct it and try again.`,
        details,
      )
    case 'access_error':
      // The same status covers a bad token and a missing permission. Taken as the token first;
      // when a freshly issued token is refused too, the caller turns it into `reportAccessDenied`.
      return signInRejected(reason, details)
    case 'timeout':
      return new AppError(
        'timeout',
        `The report took too long on the platform: ${sentence(reason, 'it timed out')} Narrow the date range or the filters and try again.`,
        details,
      )
    case 'internal_error':
      return new AppError('server', `The reporting service failed: ${sentence(reason, 'an unknown problem')} Try again later.`, details)
    default:
      return new AppError(
        'server',
        `The reporting service answered with an unknown status "${apiStatus}": ${sentence(reason, 'no explanation given')}`,
        details,
      )
  }
}

/** access_error for a token just issued: the token is fine, the user lacks access to the project or report. */
export function reportAccessDenied(rejected: AppError): AppError {
  const reason = typeof rejected.details?.reason === 'string' ? rejected.details.reason : null
  return new AppError(
    'forbidden',
    `You do not have access to this report: ${sentence(reason, 'the platform refused it')} Check the project and report names, or ask an administrator for access.`,
    rejected.details,
  )
}
