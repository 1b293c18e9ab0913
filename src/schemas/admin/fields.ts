/** The pieces the dashboard API's bodies share: roles, instants, addresses, local dates, and the club in the path. */
import { Type } from '@sinclair/typebox'
import { ADMIN_ROLES } from '../../domain/admin-roles.js'

export const Role = () => Type.Union(ADMIN_ROLES.map((role) => Type.Literal(role)), {
  description: 'owner: everything, including the team and ownership; admin: everything but the team; editor: the club\'s '
    + 'groups, events, news, competition results and members only (docs/dashboard.md).',
})
export const Instant = (description: string) => Type.String({ format: 'date-time', description })
export const Email = () => Type.String({ minLength: 3, maxLength: 254, description: 'An e-mail address.' })
export const LocalDate = (description: string) => Type.String({ format: 'date', description })

export const ClubParams = Type.Object({
  club: Type.String({ minLength: 1, maxLength: 100, description: 'The club\'s slug.' }),
}, { additionalProperties: false })
