import { Type } from '@sinclair/typebox'
import type { Static } from '@sinclair/typebox'
import { ListEnvelope, DateTime, Uuid } from './common.js'

export const News = Type.Object({
  id: Uuid(),
  title: Type.String(),
  content: Type.String(),
  published_at: DateTime('Publication instant, in UTC.'),
  created_by: Type.Optional(Uuid('Member who wrote the item; omitted when unknown.')),
}, {
  $id: 'News',
  additionalProperties: false,
  description: 'A published news item of the club.',
  examples: [{
    id: '9a4e6c12-3d5b-4f80-a1c7-e2b9d0f3a6b8', title: 'Courts 3 and 4 resurfaced',
    content: 'The clay courts 3 and 4 are open again after resurfacing. Please water them before play.',
    published_at: '2026-06-12T07:30:00.000Z', created_by: '5c8b1f2d-7e4a-4b3c-9d6e-0a1f2b3c4d5e',
  }],
})
export type News = Static<typeof News>

/** A page of news with the number that match. */
export const NewsList = ListEnvelope(News, 'A page of news and the number of records that match.')
