import { computed, reactive, ref } from 'vue'
import type { Profile, ProfileInput } from '@contract'
import { toApiError, type ApiError } from '../api/bridge'

export interface ProfileFormModel {
  name: string
  baseUrl: string
  authUrl: string
  reportUrl: string
  serviceId: string
  reportServiceId: string
  defaultProject: string
  defaultSlicer: string
  authMethod: 'password' | 'token'
  username: string
  password: string
  token: string
  sessionOnlySecret: boolean
}

export type ProfileField = keyof Omit<ProfileFormModel, 'authMethod' | 'sessionOnlySecret' | 'password' | 'token'> | 'secret'

function emptyModel(): ProfileFormModel {
  return {
    name: '',
    baseUrl: '',
    authUrl: '',
    reportUrl: '',
    serviceId: '',
    reportServiceId: '',
    defaultProject: '',
    defaultSlicer: '',
    authMethod: 'password',
    username: '',
    password: '',
    token: '',
    sessionOnlySecret: false,
  }
}

/** Where the contract's input paths land in the form. */
const issuePathToField: Record<string, ProfileField> = {
  'auth.username': 'username',
  'auth.password': 'secret',
  'auth.token': 'secret',
  secret: 'secret',
}

/** An address as main stores it (origin and path, no trailing slash), so a retyped slash is no change. */
function sameAddress(typed: string, stored: string): boolean {
  try {
    const url = new URL(typed.trim())
    return `${url.origin}${url.pathname}`.replace(/\/+$/, '') === stored
  } catch {
    return typed.trim() === stored
  }
}

/**
 * The connection form's state and rules. The renderer checks only what it can know
 * (required fields); addresses are checked by main, whose field errors land here too.
 */
export function useProfileForm(existing: Profile | null) {
  const model = reactive<ProfileFormModel>(emptyModel())
  if (existing) {
    Object.assign(model, {
      name: existing.name,
      baseUrl: existing.baseUrl,
      authUrl: existing.authUrl,
      reportUrl: existing.reportUrl,
      serviceId: existing.serviceId,
      reportServiceId: existing.reportServiceId ?? '',
      defaultProject: existing.defaultProject ?? '',
      defaultSlicer: existing.defaultSlicer ?? '',
      authMethod: existing.authMethod,
      username: existing.username ?? '',
    })
  }
  const errors = ref<Partial<Record<ProfileField, string>>>({})
  const formError = ref<ApiError | null>(null)

  /**
   * Main keeps a saved secret only while the connection points where it did: another address,
   * service id, user name or sign-in method needs the secret entered again.
   */
  const repointed = computed(
    () =>
      existing !== null &&
      (!sameAddress(model.baseUrl, existing.baseUrl) ||
        !sameAddress(model.authUrl, existing.authUrl) ||
        !sameAddress(model.reportUrl, existing.reportUrl) ||
        model.serviceId.trim() !== existing.serviceId ||
        (model.reportServiceId.trim() || null) !== existing.reportServiceId ||
        model.authMethod !== existing.authMethod ||
        (model.authMethod === 'password' && model.username.trim() !== (existing.username ?? ''))),
  )
  /** A secret is needed for a new profile, a copy without one, or a connection that now points elsewhere. */
  const secretRequired = computed(() => !existing || !existing.hasSecret || repointed.value)

  function check(): boolean {
    const found: Partial<Record<ProfileField, string>> = {}
    for (const field of ['name', 'baseUrl', 'authUrl', 'reportUrl', 'serviceId'] as const) {
      if (model[field].trim() === '') found[field] = 'Required'
    }
    if (model.authMethod === 'password' && model.username.trim() === '') found.username = 'Required'
    const secret = model.authMethod === 'password' ? model.password : model.token.trim()
    const what = model.authMethod === 'password' ? 'password' : 'token'
    if (secretRequired.value && secret === '')
      found.secret = existing?.hasSecret === true && repointed.value ? `Enter the ${what} again: the addresses or sign-in changed` : `Enter the ${what}`
    errors.value = found
    return Object.keys(found).length === 0
  }

  function toInput(): ProfileInput {
    const auth: ProfileInput['auth'] =
      model.authMethod === 'password'
        ? { method: 'password', username: model.username.trim(), ...(model.password !== '' ? { password: model.password } : {}) }
        : { method: 'token', ...(model.token.trim() !== '' ? { token: model.token.trim() } : {}) }
    return {
      name: model.name.trim(),
      baseUrl: model.baseUrl.trim(),
      authUrl: model.authUrl.trim(),
      reportUrl: model.reportUrl.trim(),
      serviceId: model.serviceId.trim(),
      reportServiceId: model.reportServiceId.trim(),
      defaultProject: model.defaultProject.trim(),
      defaultSlicer: model.defaultSlicer.trim(),
      auth,
      ...(model.sessionOnlySecret ? { sessionOnlySecret: true } : {}),
    }
  }

  /** Puts a failed save's messages next to the fields they name; the rest goes above the form. */
  function showError(error: unknown): void {
    const apiError = toApiError(error)
    const found: Partial<Record<ProfileField, string>> = {}
    for (const [name, messages] of Object.entries(apiError.fieldErrors)) {
      const field = (issuePathToField[name] ?? name) as ProfileField
      found[field] = messages.join(' ')
    }
    for (const issue of apiError.details?.issues ?? []) {
      // Plain lines (a response check's) name no field: the message above the form says them.
      if (typeof issue === 'string') continue
      const field = (issuePathToField[issue.path] ?? issue.path) as ProfileField
      found[field] = issue.message
    }
    errors.value = found
    formError.value = apiError
  }

  /** Clears the secret fields once saved: the renderer holds a secret no longer than the form needs it. */
  function forgetSecret(): void {
    model.password = ''
    model.token = ''
  }

  return { model, errors, formError, secretRequired, check, toInput, showError, forgetSecret }
}
