import { Type } from '@sinclair/typebox'
import type { Static } from '@sinclair/typebox'
import { DateTime, Uuid } from './common.js'

export const News = Type.Object({
  id: Uuid(),
  title: Type.String(),
  content: Type.String(),
  published_at: DateTime('Publication instant, in UTC.'),
  created_by: Type.Optional(Uuid('Member who wrote the item; omitted when unknown.')),
}, { $id: 'News', additionalProperties: false, description: 'A published news item of the club.' })
export type News = Static<typeof News>
