/** A club with courts, holds and a clock, for the court and booking tests. */
import type { Harness } from './harness.js'
import { idFor } from './fixtures.js'
import { importClubData } from '../../src/services/import.js'

export const COURT = {
  a: idFor('court:a'),
  b: idFor('court:b'),
  inactive: idFor('court:inactive'),
  allDay: idFor('court:all-day'),
}

/** Monday 2026-06-15 12:00 in Berlin (10:00Z) is the harness's START; the day after is a Tuesday. */
export const TUESDAY = '2026-06-16'

export async function setUpCourts(h: Harness, slug: string): Promise<{ clubId: string }> {
  const club = await h.createClub(slug, 'Europe/Berlin')
  await importClubData(h.context.db, h.clock, club.id, {
    members: [{ id: idFor(`${slug}:member`), name: 'Mara Member', email: 'Mara@Example.org' }],
    courts: [
      { id: COURT.a, name: 'Court A', slot_minutes: 60 },
      { id: COURT.b, name: 'Court B', slot_minutes: 30, max_slots_per_booking: 4,
        opening_hours: { mon: { open: '18:00', close: '22:00' }, tue: { open: '18:00', close: '22:00' },
          wed: { open: '18:00', close: '22:00' }, thu: { open: '18:00', close: '22:00' }, fri: { open: '18:00', close: '22:00' } } },
      { id: COURT.inactive, name: 'Court C (closed for renovation)', active: false },
      { id: COURT.allDay, name: 'Court D (floodlit)', booking_horizon_days: 366, opening_hours: Object.fromEntries(
        ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((day) => [day, { open: '00:00', close: '24:00' }])) },
    ],
    court_holds: [
      { id: idFor(`${slug}:block`), court_id: COURT.a, kind: 'block', reason: 'line painting',
        starts_at: `${TUESDAY}T10:00:00+02:00`, ends_at: `${TUESDAY}T12:00:00+02:00` },
      { id: idFor(`${slug}:match`), court_id: COURT.a, kind: 'reservation', reason: 'league match',
        starts_at: `${TUESDAY}T11:00:00+02:00`, ends_at: `${TUESDAY}T13:00:00+02:00` },
      { id: idFor(`${slug}:training`), court_id: COURT.a, kind: 'reservation', reason: 'junior training',
        weekday: 'tue', start_time: '18:00', end_time: '20:00', valid_from: '2026-06-01', valid_until: '2026-08-31' },
    ],
  })
  return { clubId: club.id }
}
