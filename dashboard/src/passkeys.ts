/**
 * The browser's half of the passkey ceremonies (@simplewebauthn/browser); the server begins and
 * verifies each one. The options arrive as the dashboard API's free-form JSON and are handed to the
 * library, which reads them field by field.
 */
import { browserSupportsWebAuthn, startAuthentication, startRegistration } from '@simplewebauthn/browser'
import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser'
import { api, problemOf } from './api/client'
import type { Problem, Schemas } from './api/client'

export const passkeysSupported = browserSupportsWebAuthn()

/** Problems the browser reports (the person cancelled, no passkey here) as problem documents for the page. */
function browserProblem(error: unknown): Problem {
  const detail = error instanceof Error ? error.message : String(error)
  return { type: 'about:blank', title: 'Passkey', status: 0, detail, instance: '', request_id: '', code: 'invalid_value' }
}

export async function addPasskey(name: string): Promise<Problem | null> {
  const begun = await api.POST('/api/admin/v1/me/passkeys/options')
  if (begun.data === undefined) return problemOf(begun.error, begun.response.status)
  let response
  try {
    response = await startRegistration({ optionsJSON: begun.data.options as unknown as PublicKeyCredentialCreationOptionsJSON })
  } catch (error) {
    return browserProblem(error)
  }
  const added = await api.POST('/api/admin/v1/me/passkeys', { body: { challenge_id: begun.data.challenge_id, name,
    response: response as unknown as Record<string, unknown> } })
  return added.data === undefined ? problemOf(added.error, added.response.status) : null
}

export async function signInWithPasskey(): Promise<{ me: Schemas['Me'] } | { problem: Problem }> {
  const begun = await api.POST('/api/admin/v1/sign-in/passkey/options')
  if (begun.data === undefined) return { problem: problemOf(begun.error, begun.response.status) }
  let response
  try {
    response = await startAuthentication({ optionsJSON: begun.data.options as unknown as PublicKeyCredentialRequestOptionsJSON })
  } catch (error) {
    return { problem: browserProblem(error) }
  }
  const signedIn = await api.POST('/api/admin/v1/sign-in/passkey', { body: { challenge_id: begun.data.challenge_id,
    response: response as unknown as Record<string, unknown> } })
  return signedIn.data === undefined ? { problem: problemOf(signedIn.error, signedIn.response.status) } : { me: signedIn.data }
}
