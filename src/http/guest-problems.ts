/**
 * The public endpoints speak the guest's language: a problem's `detail` and its parameters' reasons
 * in the first language of `Accept-Language` the service speaks (else English), said from each
 * reason's code (src/i18n/guest, `refusals`), with `Content-Language` naming it. The codes stay as
 * they are, for a client that says it in its own words.
 */
import type { FastifyReply, FastifyRequest } from 'fastify'
import { preferredLanguage } from '../domain/languages.js'
import type { GuestLanguage } from '../domain/languages.js'
import { refusalText } from '../i18n/guest/index.js'
import { ProblemError } from './problems.js'

/** The problem in the guest's language; a problem with a reason the guest's texts do not say stays as it is. */
export function inGuestLanguage(problem: ProblemError, language: GuestLanguage): ProblemError {
  const refusals = problem.refusals.length > 0 ? problem.refusals : [{ code: problem.code }]
  const said = refusals.map((refusal) => ({ refusal, text: refusalText(language, refusal) }))
  if (!said.every((each): each is typeof each & { text: string } => each.text !== undefined)) return problem
  const fields = said.filter((each) => each.refusal.field !== undefined)
  return new ProblemError(problem.kind, said.map((each) => each.text).join(' '),
    { ...problem.headers, 'content-language': language },
    fields.length === 0
      ? problem.invalidParams
      : fields.map((each) => ({ name: each.refusal.field ?? '', reason: each.text, code: each.refusal.code })),
    problem.extensions, refusals)
}

/** The language a public request's refusals are said in: the guest's first the service speaks, else English. */
export function guestLanguageOf(request: FastifyRequest): GuestLanguage {
  return preferredLanguage(request.headers['accept-language']) ?? 'en'
}

/** What a refusal depends on besides the URL: the guest's language. */
export function varyByLanguage(reply: FastifyReply): void {
  const vary = reply.getHeader('vary')
  const list = typeof vary === 'string' && vary !== '' ? vary.split(',').map((part) => part.trim()) : []
  if (!list.some((part) => part.toLowerCase() === 'accept-language')) void reply.header('vary', [...list, 'Accept-Language'].join(', '))
}
