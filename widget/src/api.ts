/**
 * The service the widget asks (the one that served this script, unless told otherwise), the public
 * operations it calls — typed by the client's schema, which is generated from the service's OpenAPI
 * document, so a changed path, parameter or body fails the widget's type-check — and what the
 * service's refusals mean to a guest. A general client (openapi-fetch, as the dashboard uses) would
 * be 2.3 kB of the widget's 15 kB; these calls are 0.3 kB.
 */
import { text } from './i18n'
import type { Lang } from './i18n'
import { refusalKey } from './refusals'
import type { components, operations, paths } from '../../clients/typescript/src/schema'

type Problem = components['schemas']['Problem']

/** The JSON body of an operation's answer with a status. */
type Json<O, S extends number> = O extends { responses: { [K in S]: { content: { 'application/json': infer B } } } } ? B : never

/** The parsed body of a success (`data`), or of a refusal (`error`: a problem document, or undefined when the body was none). */
export type Answer<T> = { readonly data: T, readonly error?: undefined, readonly response: Response }
  | { readonly data?: undefined, readonly error: unknown, readonly response: Response }

/** A path of the service's OpenAPI document with its club filled in. */
const at = (path: keyof paths, club: string): string => path.replace('{clubSlug}', encodeURIComponent(club))

async function call<T>(url: string, init: RequestInit): Promise<Answer<T>> {
  const response = await fetch(url, { ...init, credentials: 'omit' })
  const body: unknown = await response.json().catch(() => undefined)
  return response.ok ? { data: body as T, response } : { error: body, response }
}

/**
 * A JSON POST in the guest's language (the language of the mails it causes and of the refusals), with
 * the Idempotency-Key of the booking it stands for: a retry of it is answered as the first attempt was.
 */
const post = <T>(url: string, body: object, language: Lang, key: string): Promise<Answer<T>> => call<T>(url, {
  method: 'POST', headers: { 'content-type': 'application/json', 'accept-language': language, 'idempotency-key': key },
  body: JSON.stringify(body),
})

type Query<O> = O extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never

function search(query: Record<string, string | number | undefined>): string {
  const defined = Object.entries(query).filter((entry): entry is [string, string | number] => entry[1] !== undefined)
  return defined.length === 0 ? '' : `?${new URLSearchParams(defined.map(([name, value]) => [name, String(value)])).toString()}`
}

/** The public court operations of the service at `base`. */
export function publicApi(base: string) {
  return {
    /** listCourtSlots: a day's grid, revalidated every time (a 304 when nothing changed), so a booking shows at once. */
    courts: (club: string, query: Query<operations['listCourtSlots']>) =>
      call<Json<operations['listCourtSlots'], 200>>(base + at('/api/v1/public/{clubSlug}/courts', club) + search(query),
        { cache: 'no-cache' }),
    /** listCourtDays: the dates ahead with their free times, for the date strip (revalidated as the grid is). */
    days: (club: string, query: Query<operations['listCourtDays']>) =>
      call<Json<operations['listCourtDays'], 200>>(base + at('/api/v1/public/{clubSlug}/courts/days', club) + search(query),
        { cache: 'no-cache' }),
    /** bookCourt, in the guest's language (the mails'). */
    book: (club: string, body: operations['bookCourt']['requestBody']['content']['application/json'], language: Lang, key: string) =>
      post<Json<operations['bookCourt'], 201>>(base + at('/api/v1/public/{clubSlug}/courts/book', club), body, language, key),
    /** joinWaitingList: told by mail when a taken time frees, in the guest's language. */
    wait: (club: string, body: operations['joinWaitingList']['requestBody']['content']['application/json'], language: Lang,
      key: string) =>
      post<Json<operations['joinWaitingList'], 201>>(base + at('/api/v1/public/{clubSlug}/courts/waitlist', club), body, language,
        key),
  }
}

export type PublicApi = ReturnType<typeof publicApi>

/** What the form sends: the chosen times of one court, the guest's name and address, a booking's notes. */
export interface Choice {
  readonly court_id: string
  readonly start_time: string
  readonly end_time: string
  readonly name: string
  readonly email: string
  readonly notes: string
  /** The one taken time is waited for (the waiting list), not booked. */
  readonly waiting: boolean
}

/** Books the chosen times, or puts the address on the waiting list for the one taken time; `key`: the Idempotency-Key. */
export function send(api: PublicApi, club: string, choice: Choice, language: Lang, key: string) {
  const { waiting, name, email, notes, ...times } = choice
  return waiting
    ? api.wait(club, { ...times, name, email }, language, key)
    : api.book(club, { ...times, booker_name: name, booker_email: email, ...(notes === '' ? {} : { notes }) }, language, key)
}

/** The service that served this script answers the widget's requests, unless the `api` attribute names another. */
export const SCRIPT_ORIGIN = new URL(import.meta.url).origin

/** A refusal's body as a problem document (RFC 9457), when it is one. */
function problemOf(body: unknown): Partial<Problem> {
  return typeof body === 'object' && body !== null ? body : {}
}

/** Whether a refusal's body is a problem of this type (the last segment of its `type` URI). */
export function isProblem(body: unknown, type: string): boolean {
  const known = problemOf(body).type
  return typeof known === 'string' && known.endsWith(`/${type}`)
}

/**
 * What a refusal (or one reason of it) means to a guest, in their language: the widget's text of its
 * code, else the service's words; a 429 counts the seconds until `waitUntil` (ms).
 */
export function problemText(language: Lang, status: number, reason: { readonly code?: unknown, readonly reason?: unknown },
  waitUntil: number): string {
  if (status === 429) return text(language, 'r.rate_limited', { count: Math.max(1, Math.ceil((waitUntil - Date.now()) / 1000)) })
  if (status >= 500 || status === 0) return text(language, 'r.service_unavailable')
  const key = refusalKey(language, reason.code)
  if (key !== undefined) return text(language, key)
  return text(language, 'refused', { detail: typeof reason.reason === 'string' ? reason.reason : '' })
}
