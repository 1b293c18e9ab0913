// What a club website's server does with the client, run against a live service:
// BASE_URL, API_KEY (every read scope) and CLUB (a club with courts) come from the environment.
import { ClubPlatformError, createClubClient } from '@club-platform/client'
import type { ListItem, Schemas, WebhookEvent } from '@club-platform/client'

function must(condition: boolean, what: string): asserts condition {
  if (!condition) throw new Error(`client check: ${what}`)
}

const baseUrl = process.env.BASE_URL ?? ''
const apiKey = process.env.API_KEY ?? ''
const clubSlug = process.env.CLUB ?? ''
must(baseUrl !== '' && apiKey !== '' && clubSlug !== '', 'BASE_URL, API_KEY and CLUB are required')

const club = createClubClient({ baseUrl, apiKey })

// Authenticated: every group, and one page of news with its total.
const groups: ListItem<'/api/v1/groups'>[] = await club.listAll('/api/v1/groups', 2)
must(groups.length > 0 && groups.every((group) => typeof group.name === 'string'), 'the groups are listed')
const news = await club.list('/api/v1/news', { limit: 1 })
must(news.meta.total >= news.data.length && news.meta.limit === 1, 'one page of news with meta')

// Public: tomorrow's courts, and the first slot that can be booked.
const today = await club.courts(clubSlug)
const tomorrow = new Date(Date.parse(`${today.date}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10)
const listing: Schemas['CourtAvailability'] = await club.courts(clubSlug, tomorrow)
const slot = listing.courts.find((candidate) => {
  const window = listing.booking_windows.find((entry) => entry.court_id === candidate.court_id)
  return candidate.status === 'available' && window?.earliest_start != null && window.latest_start != null
    && Date.parse(candidate.start_time) >= Date.parse(window.earliest_start) && Date.parse(candidate.start_time) <= Date.parse(window.latest_start)
})
must(slot !== undefined, `a bookable slot on ${tomorrow}`)
const booking = { court_id: slot.court_id, start_time: slot.start_time, end_time: slot.end_time, booker_name: 'Client Check',
  booker_email: 'client-check@example.org' }
const created = await club.book(clubSlug, booking)
must(created.success && /^[0-9a-f-]{36}$/.test(created.booking_id), 'the booking is made')

// Errors: the same slot again is a slot conflict; a key that is not one is refused.
try {
  await club.book(clubSlug, booking)
  must(false, 'a second booking of the slot is refused')
} catch (error) {
  must(error instanceof ClubPlatformError && error.kind === 'slot-conflict' && error.status === 400, `slot-conflict, not ${String(error)}`)
}
try {
  await createClubClient({ baseUrl, apiKey: 'cpk_not-a-key' }).list('/api/v1/groups')
  must(false, 'a wrong key is refused')
} catch (error) {
  must(error instanceof ClubPlatformError && error.kind === 'invalid-api-key' && error.status === 401, `invalid-api-key, not ${String(error)}`)
}

// A webhook's body, narrowed by its type.
function describeEvent(event: WebhookEvent): string {
  switch (event.type) {
    case 'booking.created':
    case 'booking.cancelled':
      return `${event.type} ${event.data.id}`
    default:
      return event.type
  }
}
must(describeEvent({ type: 'webhook.test', timestamp: new Date().toISOString(), data: { endpoint_id: created.booking_id, message: 'hello' } })
  === 'webhook.test', 'a webhook event is described')

console.log(JSON.stringify({ groups: groups.length, news: news.meta.total, booked: created.booking_id }))
