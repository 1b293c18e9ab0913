/**
 * One booking the guest means to make, sent until it is answered: every attempt at it carries the
 * same Idempotency-Key (a new key only when the guest sends something else), and an answer lost on
 * the way — no answer at all, or the service's 5xx — is asked for again after a pause, so that a
 * booking the service made is answered with its confirmation and never made twice.
 */
import { send } from './api'
import type { Choice, PublicApi } from './api'
import type { Lang } from './i18n'

/** The pauses (ms) before the attempts after the first. */
const RETRY_PAUSES = [800, 2000]

export interface Attempt { readonly request: string, readonly key: string }

/** A new Idempotency-Key: 128 random bits (crypto.getRandomValues, which pages on plain http have too), hex. */
export function newKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('')
}

/** The attempt of this request: the last attempt when the guest sends the same again, else a new one with a new key. */
export function attemptOf(last: Attempt | null, choice: Choice): Attempt {
  const request = JSON.stringify(choice)
  return last?.request === request ? last : { request, key: newKey() }
}

/**
 * Sends the attempt, and again after each pause while its answer is lost (`retrying` says so).
 * Undefined: no answer came; a 503 that outlasted the attempts is the answer.
 */
export async function sendUntilAnswered(api: PublicApi, club: string, choice: Choice, language: Lang, attempt: Attempt,
  retrying: () => void): Promise<Awaited<ReturnType<typeof send>> | undefined> {
  for (let tried = 0; ; tried += 1) {
    const answer = await send(api, club, choice, language, attempt.key).catch(() => undefined)
    if (answer !== undefined && answer.response.status < 500) return answer
    const pause = RETRY_PAUSES[tried]
    if (pause === undefined) return answer?.response.status === 503 ? answer : undefined
    retrying()
    await new Promise((resolve) => setTimeout(resolve, pause))
  }
}
