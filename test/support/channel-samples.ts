import type { ChannelInput, ChannelName } from '../../preload/contract'

/**
 * One well-formed input per channel. Typed against the contract, so adding a channel without
 * a sample does not compile, and the malformed-input test covers every channel by construction.
 */
export const validSamples: { [C in ChannelName]: ChannelInput<C> } = {
  'app:info': {},
  'app:dismissNotice': { id: 'notice-1' },
  'profiles:list': {},
  'profiles:create': {
    name: 'Sample',
    baseUrl: 'https://workflow.example.com/v1',
    authUrl: 'https://auth.example.com',
    reportUrl: 'https://reports.example.com',
    serviceId: 'svc',
    reportServiceId: 'reports',
    auth: { method: 'password', username: 'user', password: 'secret' },
    sessionOnlySecret: false,
  },
  'profiles:update': {
    id: 'missing-profile',
    profile: {
      name: 'Sample',
      baseUrl: 'https://workflow.example.com/v1',
      authUrl: 'https://auth.example.com',
      reportUrl: 'https://reports.example.com',
      serviceId: 'svc',
      auth: { method: 'token', token: 'abc' },
    },
  },
  'profiles:duplicate': { id: 'missing-profile' },
  'profiles:delete': { id: 'missing-profile' },
}
