/**
 * What the club promises about a booking, said before the guest books and after: until when it can be
 * cancelled online (the listing's `cancellation_deadline_minutes`), and how the club is reached when it
 * cannot be any more — never a deadline that has passed.
 */
import { text } from './i18n'
import type { Lang } from './i18n'
import type { Availability } from './slots'

const MINUTE = 60_000

/** Until when a booking starting then may be cancelled online (ms); undefined without a listing. */
export function cancellableUntil(listing: Availability | null, start: string): number | undefined {
  const minutes = listing?.cancellation_deadline_minutes
  return minutes === undefined ? undefined : Date.parse(start) - minutes * MINUTE
}

/** Whether a booking starting then could no longer be cancelled online once made. */
export function tooLateToCancel(listing: Availability | null, start: string): boolean {
  return (cancellableUntil(listing, start) ?? 0) <= Date.now()
}

/** How the club is reached, for what cannot be done online: its phone number and address, as the listing has them. */
export function contactClub(language: Lang, listing: Availability | null): string {
  const contact = listing?.contact
  const ways = [contact?.phone, contact?.email].filter((way) => way != null && way !== '')
  return ways.length === 0 ? text(language, 'contactClubAlone') : text(language, 'contactClub', { contact: ways.join(' · ') })
}

/** The club's cancellation policy for a booking starting then, said before the guest books. */
export function policyText(language: Lang, listing: Availability | null, start: string): string {
  const minutes = listing?.cancellation_deadline_minutes
  if (minutes === undefined) return ''
  if (tooLateToCancel(listing, start)) return `${text(language, 'lateTime')} ${contactClub(language, listing)}`
  if (minutes === 0) return text(language, 'policyStart')
  return minutes % 60 === 0 ? text(language, 'policyHours', { count: minutes / 60 }) : text(language, 'policyMinutes', { count: minutes })
}
