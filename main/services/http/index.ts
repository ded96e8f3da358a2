export { createHttpClient, parseUrl, readBody, readText, readErrorBody, discard } from './client'
export type { HttpClient, HttpClientOptions, HttpMethod, HttpRequest, HttpResponse, ResponseHeaders, ResponseStream } from './client'
export type { ResponseBody } from './body'
export { defaultRetryPolicy, backoffDelay } from './retry'
export type { RetryPolicy, RetryEvent } from './retry'
export {
  errorFromHttp,
  errorFromReportingStatus,
  errorFromTransport,
  badResponse,
  unreadableBody,
  signInRejected,
  retryAfterSeconds,
  reasonOf,
  cancelled,
  reportAccessDenied,
} from './errors'
export type { RequestContext, HttpFailure } from './errors'
export { withSignal, throwIfAborted } from './abort'
export { expectJson } from './validate'
