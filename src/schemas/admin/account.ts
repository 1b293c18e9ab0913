/** The dashboard API's sign-in, sessions and passkeys: the signed-in person's own account. */
import { Type } from '@sinclair/typebox'
import type { Static } from '@sinclair/typebox'
import { Nullable, Reference, Uuid } from '../common.js'
import { Email, Instant, Role } from './fields.js'

export const SignInLinkRequest = Type.Object({ email: Email() }, {
  $id: 'SignInLinkRequest', additionalProperties: false, description: 'The address to send a sign-in link to.',
})
export type SignInLinkRequest = Static<typeof SignInLinkRequest>

export const Accepted = Type.Object({ message: Type.String() }, {
  $id: 'Accepted', additionalProperties: false, description: 'The request was taken; what happens next.',
})
export type Accepted = Static<typeof Accepted>

export const TokenRequest = Type.Object({
  token: Type.String({ minLength: 1, maxLength: 200, description: 'The token from the link (the part after `#token=`).' }),
}, { $id: 'TokenRequest', additionalProperties: false, description: 'A single-use token from a sign-in link or invitation.' })
export type TokenRequest = Static<typeof TokenRequest>

export const LinkDescription = Type.Object({
  email: Type.String({ description: 'The address the link was sent to: the person it signs in.' }),
  expires_at: Instant('Until when the link works.'),
  club: Type.Union([Type.Object({ name: Type.String(), role: Role() }, { additionalProperties: false }), Type.Null()],
    { description: 'An invitation: the club it is to, and the role it gives. A sign-in link: null.' }),
  clubs: Type.Array(Type.String(), { description: 'A sign-in link: the clubs the address administers, by name. An invitation: '
    + 'empty.' }),
}, { $id: 'LinkDescription', additionalProperties: false,
  description: 'What a sign-in link or an invitation is for, as its page says before the person uses it. Nothing is used up.' })

export const ClubMembership = Type.Object({
  slug: Type.String(),
  name: Type.String(),
  timezone: Type.String({ description: 'The club\'s IANA time zone: the dashboard shows and takes the club\'s times in it.' }),
  role: Role(),
}, { $id: 'ClubMembership', additionalProperties: false, description: 'A club the signed-in person administers.' })

export const Me = Type.Object({
  admin_id: Uuid(),
  email: Type.String(),
  session_id: Uuid('The session of this request.'),
  clubs: Type.Array(Reference(ClubMembership)),
}, { $id: 'Me', additionalProperties: false, description: 'The signed-in person and the clubs they administer.' })
export type Me = Static<typeof Me>

export const Session = Type.Object({
  id: Uuid(),
  method: Type.Union([Type.Literal('link'), Type.Literal('invitation'), Type.Literal('passkey')], {
    description: 'How the session was started.',
  }),
  created_at: Instant('Sign-in.'),
  last_seen_at: Instant('The last request (to the minute).'),
  expires_at: Instant('The latest end, however active the session is.'),
  address: Nullable(Type.String({ description: 'The client address at sign-in.' })),
  user_agent: Nullable(Type.String({ description: 'The browser at sign-in.' })),
  current: Type.Boolean({ description: 'Whether this is the session of this request.' }),
}, { $id: 'Session', additionalProperties: false, description: 'A signed-in browser.' })
export type Session = Static<typeof Session>

export const SessionList = Type.Object({ items: Type.Array(Reference(Session)) }, {
  $id: 'SessionList', additionalProperties: false, description: 'The live sessions of the signed-in person, most recent first.',
})

export const SessionIdParams = Type.Object({ session: Uuid('A session id.') }, { additionalProperties: false })

const WebAuthnJson = (description: string) => Type.Record(Type.String(), Type.Unknown(), { description })

export const PasskeyOptions = Type.Object({
  challenge_id: Uuid('Names this ceremony; send it back with the browser\'s answer (within 5 minutes).'),
  options: WebAuthnJson('The WebAuthn options (JSON form) for `navigator.credentials.create()` or `.get()`.'),
}, { $id: 'PasskeyOptions', additionalProperties: false, description: 'A WebAuthn ceremony begun by the server.' })

export const PasskeyRegistration = Type.Object({
  challenge_id: Uuid(),
  name: Type.String({ maxLength: 100, description: 'What the person calls it, e.g. "laptop".' }),
  response: WebAuthnJson('The browser\'s registration response (JSON form).'),
}, { $id: 'PasskeyRegistration', additionalProperties: false, description: 'A new passkey, as the browser made it.' })

export const PasskeyAssertion = Type.Object({
  challenge_id: Uuid(),
  response: WebAuthnJson('The browser\'s authentication response (JSON form).'),
}, { $id: 'PasskeyAssertion', additionalProperties: false, description: 'A passkey\'s signature over the challenge.' })

export const Passkey = Type.Object({
  id: Type.String({ description: 'The credential id (base64url).' }),
  name: Type.String(),
  created_at: Instant('Added.'),
  last_used_at: Nullable(Instant('The last sign-in with it.')),
}, { $id: 'Passkey', additionalProperties: false, description: 'A passkey of the signed-in person.' })

export const PasskeyList = Type.Object({ items: Type.Array(Reference(Passkey)) }, {
  $id: 'PasskeyList', additionalProperties: false, description: 'The signed-in person\'s passkeys.',
})

export const PasskeyParams = Type.Object({
  passkey: Type.String({ pattern: '^[A-Za-z0-9_-]{1,1400}$', description: 'A passkey\'s credential id.' }),
}, { additionalProperties: false })
