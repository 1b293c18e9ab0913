/**
 * Signing in and out of the dashboard, and the signed-in person's own account: sign-in links,
 * invitations, sessions (docs/dashboard.md, "Signing in").
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { ADMIN_PREFIX, callerOf, dashboardSettings, sessionCookieName, sessionCookieOptions } from '../../http/dashboard-access.js'
import { jsonResponse, noContent, problemResponse } from '../../http/responses.js'
import { Reference } from '../../schemas/common.js'
import { Accepted, LinkDescription, Me, Passkey, PasskeyAssertion, PasskeyList, PasskeyOptions, PasskeyParams,
  PasskeyRegistration, SessionIdParams, SessionList, SignInLinkRequest, TokenRequest } from '../../schemas/admin.js'
import type { Me as MeBody, Session as SessionBody } from '../../schemas/admin.js'
import { acceptInvitation, checkEmail, describeInvitation, describeSignInLink, membershipsOf, requestSignInLink, sessionsOf,
  signInWithLink, signOut } from '../../services/admins.js'
import type { DashboardSettings, NewSession } from '../../services/admins.js'
import { addPasskey, authenticationOptions, passkeysOf, registrationOptions, removePasskey,
  signInWithPasskey } from '../../services/passkeys.js'
import type { PasskeyRecord, SessionRecord } from '../../services/admins.js'
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server'

const TAG = 'Account'
const SIGN_IN_ACCEPTED = 'If this address administers a club, a sign-in link is on its way; it works once, for 15 minutes.'

const NOT_SIGNED_IN = problemResponse('No session, or the session has ended.')
const CROSS_SITE = problemResponse('Cross-site request, or (on club routes) a role that does not allow this.')
const INVALID = problemResponse('The body is malformed, or the link is unknown, used or expired.')
const TOO_MANY = problemResponse('Too many sign-in attempts from this address; retry after the time in Retry-After.')

function passkeyBody(passkey: PasskeyRecord) {
  return { id: passkey.id, name: passkey.name, created_at: passkey.createdAt, last_used_at: passkey.lastUsedAt }
}

export function sessionBody(session: SessionRecord, currentId: string): SessionBody {
  return { id: session.id, method: session.method, created_at: session.createdAt, last_seen_at: session.lastSeenAt,
    expires_at: session.expiresAt, address: session.address, user_agent: session.userAgent, current: session.id === currentId }
}

async function meOf(context: AppContext, session: Pick<SessionRecord, 'id' | 'adminId' | 'email'>): Promise<MeBody> {
  const clubs = await membershipsOf(context.db, session.adminId)
  return { admin_id: session.adminId, email: session.email, session_id: session.id,
    clubs: clubs.map((club) => ({ slug: club.clubSlug, name: club.clubName, timezone: club.clubTimezone, role: club.role })) }
}

/** Where a sign-in comes from, as the session records it. */
function requestOf(request: FastifyRequest) {
  return { address: request.ip, userAgent: request.headers['user-agent'] ?? null }
}

/** What the account's routes share: the dashboard's settings, the session cookie's name and the sign-in limit. */
interface Account {
  readonly context: AppContext
  readonly settings: DashboardSettings
  readonly cookieName: string
  /** One budget per client for every route that signs in or reads a token. */
  readonly signInLimit: onRequestHookHandler
  /** Sets the new session's cookie and answers 201 with the signed-in person. */
  readonly signedIn: (reply: FastifyReply, started: NewSession) => Promise<FastifyReply>
}

export function accountRoutes(app: FastifyInstance, context: AppContext): void {
  const settings = dashboardSettings(context)
  const cookieName = sessionCookieName(settings.publicUrl)
  const account: Account = {
    context, settings, cookieName,
    signInLimit: context.publicLimits.signIn.hook(),
    signedIn: async (reply, started) => {
      void reply.setCookie(cookieName, started.token, sessionCookieOptions(settings.publicUrl, settings.sessionAbsoluteMs))
      return reply.code(201).send(await meOf(context, started.session))
    },
  }
  registerSignIn(app, account)
  registerInvitations(app, account)
  registerPasskeySignIn(app, account)
  registerPasskeys(app, account)
  registerSessions(app, account)
}

/** Sign-in links: asking for one, signing in with it, and what it is for. */
function registerSignIn(parent: FastifyInstance, { context, settings, signInLimit, signedIn }: Account): void {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>()
  app.post(`${ADMIN_PREFIX}/sign-in/link`, {
    config: { access: { dashboard: 'anyone' } },
    onRequest: signInLimit,
    schema: {
      operationId: 'requestSignInLink',
      summary: 'Ask for a sign-in link',
      description: 'Mails a sign-in link to the address if it administers a club. The answer is the same, and as quick, '
        + 'whether or not it does: the link is prepared after the answer. At most five links an hour per address.',
      tags: [TAG],
      body: Reference(SignInLinkRequest),
      response: {
        202: jsonResponse('Taken: a link is on its way if the address administers a club.', Reference(Accepted)),
        400: INVALID, 403: CROSS_SITE, 429: TOO_MANY,
      },
    },
  }, async (request, reply) => {
    const email = checkEmail(request.body.email)
    const meta = requestOf(request)
    // After the answer, so that its timing says nothing about the address.
    const answered = new Promise<void>((resolve) => {
      reply.raw.once('finish', resolve).once('close', resolve)
    })
    context.background.run(async () => {
      await answered
      await requestSignInLink(context.db, context.clock, settings, email, meta)
    }, (error: unknown) => {
      request.log.error({ err: error }, 'preparing a sign-in link failed')
    })
    return reply.code(202).send({ message: SIGN_IN_ACCEPTED })
  })

  app.post(`${ADMIN_PREFIX}/sign-in`, {
    config: { access: { dashboard: 'anyone' } },
    onRequest: signInLimit,
    schema: {
      operationId: 'signInWithLink',
      summary: 'Sign in with a link',
      description: 'Uses the token of a sign-in link (once, within 15 minutes) and starts a session: the session cookie '
        + 'is set (HttpOnly, SameSite=Lax, Secure over HTTPS).',
      tags: [TAG],
      body: Reference(TokenRequest),
      response: { 201: jsonResponse('Signed in.', Reference(Me)), 400: INVALID, 403: CROSS_SITE, 429: TOO_MANY },
    },
  }, async (request, reply) => signedIn(reply, await signInWithLink(context.db, context.clock, settings, request.body.token,
    requestOf(request))))

  app.post(`${ADMIN_PREFIX}/sign-in/describe`, {
    config: { access: { dashboard: 'anyone' } },
    onRequest: signInLimit,
    schema: {
      operationId: 'describeSignInLink',
      summary: 'What a sign-in link is for',
      description: 'The address a sign-in link signs in, and the clubs it administers, so that the link\'s page can say so before '
        + 'the person uses it. Nothing is used up; a used, expired or unknown link is 400 `invalid-token`.',
      tags: [TAG],
      body: Reference(TokenRequest),
      response: { 200: jsonResponse('What the link is for.', Reference(LinkDescription)), 400: INVALID, 403: CROSS_SITE,
        429: TOO_MANY },
    },
  }, async (request) => {
    const link = await describeSignInLink(context.db, context.clock, request.body.token)
    return { email: link.email, expires_at: link.expiresAt, club: null, clubs: link.clubs.map((club) => club.clubName) }
  })
}

/** Invitations: what one is for, and accepting it. */
function registerInvitations(parent: FastifyInstance, { context, settings, signInLimit, signedIn }: Account): void {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>()

  app.post(`${ADMIN_PREFIX}/invitations/describe`, {
    config: { access: { dashboard: 'anyone' } },
    onRequest: signInLimit,
    schema: {
      operationId: 'describeInvitation',
      summary: 'What an invitation is for',
      description: 'The club an invitation is to, the role it gives and the address it was sent to, so that its page can say '
        + 'so before the person accepts. Nothing is used up; a used, withdrawn, expired or unknown invitation is 400 '
        + '`invalid-token`.',
      tags: [TAG],
      body: Reference(TokenRequest),
      response: { 200: jsonResponse('What the invitation is for.', Reference(LinkDescription)), 400: INVALID, 403: CROSS_SITE,
        429: TOO_MANY },
    },
  }, async (request) => {
    const invitation = await describeInvitation(context.db, context.clock, request.body.token)
    return { email: invitation.email, expires_at: invitation.expiresAt,
      club: { name: invitation.clubName, role: invitation.role }, clubs: [] }
  })

  app.post(`${ADMIN_PREFIX}/invitations/accept`, {
    config: { access: { dashboard: 'anyone' } },
    onRequest: signInLimit,
    schema: {
      operationId: 'acceptInvitation',
      summary: 'Accept an invitation',
      description: 'Uses the token of an invitation (once, within 7 days): the invited address joins the club with the '
        + 'invited role and is signed in.',
      tags: [TAG],
      body: Reference(TokenRequest),
      response: { 201: jsonResponse('Joined and signed in.', Reference(Me)), 400: INVALID, 403: CROSS_SITE, 429: TOO_MANY },
    },
  }, async (request, reply) => signedIn(reply, await acceptInvitation(context.db, context.clock, settings, request.body.token,
    requestOf(request))))
}

/** Signing in with a passkey: the ceremony's options, then its answer. */
function registerPasskeySignIn(parent: FastifyInstance, { context, settings, signInLimit, signedIn }: Account): void {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>()

  app.post(`${ADMIN_PREFIX}/sign-in/passkey/options`, {
    config: { access: { dashboard: 'anyone' } },
    onRequest: signInLimit,
    schema: {
      operationId: 'beginPasskeySignIn',
      summary: 'Begin signing in with a passkey',
      description: 'The WebAuthn options for `navigator.credentials.get()`; the browser offers the passkeys it holds for '
        + 'this service.',
      tags: [TAG],
      response: { 200: jsonResponse('The ceremony.', Reference(PasskeyOptions)), 403: CROSS_SITE, 429: TOO_MANY },
    },
  }, async () => {
    const begun = await authenticationOptions(context.db, context.clock, settings)
    return { challenge_id: begun.challengeId, options: { ...begun.options } }
  })

  app.post(`${ADMIN_PREFIX}/sign-in/passkey`, {
    config: { access: { dashboard: 'anyone' } },
    onRequest: signInLimit,
    schema: {
      operationId: 'signInWithPasskey',
      summary: 'Sign in with a passkey',
      description: 'Verifies the passkey\'s signature over the ceremony\'s challenge and starts a session (the cookie is set).',
      tags: [TAG],
      body: Reference(PasskeyAssertion),
      response: { 201: jsonResponse('Signed in.', Reference(Me)), 400: INVALID, 403: CROSS_SITE, 429: TOO_MANY },
    },
  }, async (request, reply) => signedIn(reply, await signInWithPasskey(context.db, context.clock, settings, {
    challengeId: request.body.challenge_id,
    // Checked field by field by the WebAuthn library, which refuses anything malformed.
    response: request.body.response as unknown as AuthenticationResponseJSON,
  }, requestOf(request))))
}

/** The signed-in person's passkeys: list, add (options, then the registration) and remove. */
function registerPasskeys(parent: FastifyInstance, { context, settings }: Account): void {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>()

  app.get(`${ADMIN_PREFIX}/me/passkeys`, {
    config: { access: { dashboard: 'signed-in' } },
    schema: {
      operationId: 'listPasskeys',
      summary: 'My passkeys',
      description: 'The passkeys the signed-in person can sign in with.',
      tags: [TAG],
      response: { 200: jsonResponse('The passkeys.', Reference(PasskeyList)), 401: NOT_SIGNED_IN },
    },
  }, async (request) => ({ items: (await passkeysOf(context.db, callerOf(request).session.adminId)).map(passkeyBody) }))

  app.post(`${ADMIN_PREFIX}/me/passkeys/options`, {
    config: { access: { dashboard: 'signed-in' } },
    schema: {
      operationId: 'beginPasskeyRegistration',
      summary: 'Begin adding a passkey',
      description: 'The WebAuthn options for `navigator.credentials.create()`.',
      tags: [TAG],
      response: { 200: jsonResponse('The ceremony.', Reference(PasskeyOptions)), 401: NOT_SIGNED_IN, 403: CROSS_SITE },
    },
  }, async (request) => {
    const { session } = callerOf(request)
    const begun = await registrationOptions(context.db, context.clock, settings,
      { adminId: session.adminId, email: session.email })
    return { challenge_id: begun.challengeId, options: { ...begun.options } }
  })

  app.post(`${ADMIN_PREFIX}/me/passkeys`, {
    config: { access: { dashboard: 'signed-in' } },
    schema: {
      operationId: 'addPasskey',
      summary: 'Add a passkey',
      description: 'Verifies the browser\'s registration response and keeps the passkey.',
      tags: [TAG],
      body: Reference(PasskeyRegistration),
      response: { 201: jsonResponse('Added.', Reference(Passkey)), 400: INVALID, 401: NOT_SIGNED_IN, 403: CROSS_SITE },
    },
  }, async (request, reply) => {
    const { session } = callerOf(request)
    const added = await addPasskey(context.db, context.clock, settings, { adminId: session.adminId, label: session.email,
      address: request.ip }, { challengeId: request.body.challenge_id, name: request.body.name,
      // Checked field by field by the WebAuthn library, which refuses anything malformed.
      response: request.body.response as unknown as RegistrationResponseJSON })
    return reply.code(201).send(passkeyBody(added))
  })

  app.delete(`${ADMIN_PREFIX}/me/passkeys/:passkey`, {
    config: { access: { dashboard: 'signed-in' } },
    schema: {
      operationId: 'removePasskey',
      summary: 'Remove a passkey',
      description: 'The passkey no longer signs anyone in.',
      tags: [TAG],
      params: PasskeyParams,
      response: { 204: noContent('Removed.'), 401: NOT_SIGNED_IN, 403: CROSS_SITE, 404: problemResponse('No such passkey.') },
    },
  }, async (request, reply) => {
    const { session } = callerOf(request)
    await removePasskey(context.db, context.clock, { adminId: session.adminId, label: session.email, address: request.ip },
      request.params.passkey)
    return reply.code(204).send()
  })
}

/** The signed-in person and their sessions: who they are, where they are signed in, signing out. */
function registerSessions(parent: FastifyInstance, { context, cookieName }: Account): void {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>()

  app.get(`${ADMIN_PREFIX}/me`, {
    config: { access: { dashboard: 'signed-in' } },
    schema: {
      operationId: 'getMe',
      summary: 'The signed-in person',
      description: 'The signed-in person, this session, and the clubs they administer with their role in each.',
      tags: [TAG],
      response: { 200: jsonResponse('The signed-in person.', Reference(Me)), 401: NOT_SIGNED_IN },
    },
  }, async (request) => meOf(context, callerOf(request).session))

  app.get(`${ADMIN_PREFIX}/me/sessions`, {
    config: { access: { dashboard: 'signed-in' } },
    schema: {
      operationId: 'listSessions',
      summary: 'Where I am signed in',
      description: 'The live sessions of the signed-in person, most recently used first.',
      tags: [TAG],
      response: { 200: jsonResponse('The live sessions.', Reference(SessionList)), 401: NOT_SIGNED_IN },
    },
  }, async (request) => {
    const { session } = callerOf(request)
    return { items: (await sessionsOf(context.db, context.clock, session.adminId)).map((item) => sessionBody(item, session.id)) }
  })

  app.delete(`${ADMIN_PREFIX}/me/sessions`, {
    config: { access: { dashboard: 'signed-in' } },
    schema: {
      operationId: 'signOutEverywhere',
      summary: 'Sign out everywhere',
      description: 'Ends every session of the signed-in person, this one included.',
      tags: [TAG],
      response: { 204: noContent('Signed out everywhere.'), 401: NOT_SIGNED_IN, 403: CROSS_SITE },
    },
  }, async (request, reply) => {
    const { session } = callerOf(request)
    await signOut(context.db, context.clock, { adminId: session.adminId, label: session.email, address: request.ip })
    return reply.clearCookie(cookieName, { path: '/' }).code(204).send()
  })

  app.delete(`${ADMIN_PREFIX}/me/sessions/:session`, {
    config: { access: { dashboard: 'signed-in' } },
    schema: {
      operationId: 'endSession',
      summary: 'End a session',
      description: 'Ends one session of the signed-in person (this one: signing out).',
      tags: [TAG],
      params: SessionIdParams,
      response: { 204: noContent('Ended.'), 401: NOT_SIGNED_IN, 403: CROSS_SITE, 404: problemResponse('No such session.') },
    },
  }, async (request, reply) => {
    const { session } = callerOf(request)
    await signOut(context.db, context.clock, { adminId: session.adminId, label: session.email, address: request.ip },
      request.params.session)
    if (request.params.session === session.id) void reply.clearCookie(cookieName, { path: '/' })
    return reply.code(204).send()
  })
}
