// Mistakes a customer's compiler must refuse. Each line below an @ts-expect-error is a type error
// with the package's types; were they missing or `any`, the directive itself would be the error.
import { createClubClient } from '@club-platform/client'
import type { ListItem, Schemas, WebhookEvent } from '@club-platform/client'

const club = createClubClient({ baseUrl: 'https://clubs.example', apiKey: 'cpk_…' })

export async function mistakes(): Promise<void> {
  const groups = await club.listAll('/api/v1/groups')
  // @ts-expect-error: a group has no `title`
  console.log(groups[0]?.title)
  // @ts-expect-error: not a list of the API
  await club.list('/api/v1/members')
  // @ts-expect-error: `limit` is a number
  await club.list('/api/v1/news', { limit: '10' })
  const page = await club.list('/api/v1/events')
  // @ts-expect-error: the total is a number
  const total: string = page.meta.total
  console.log(total)
  // @ts-expect-error: booker_email is required
  await club.book('tc-riverside', { court_id: 'c', start_time: 's', end_time: 'e', booker_name: 'n' })
  const listing = await club.courts('tc-riverside')
  // @ts-expect-error: a slot's status is one of four words
  const closed: (typeof listing.courts)[number]['status'] = 'closed'
  console.log(closed)
  // @ts-expect-error: a competition result's points are a number or null
  const points: ListItem<'/api/v1/competition-results'>['points'] = 'twelve'
  console.log(points)
  // @ts-expect-error: no such schema
  const nothing: Schemas['Nothing'] = {}
  console.log(nothing)
  // @ts-expect-error: no such event type
  const event: WebhookEvent<'booking.moved'> = { type: 'booking.moved' }
  console.log(event)
}
