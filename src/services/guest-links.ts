/** The addresses the service gives guests, under its public URL: a booking's page, and a club's hosted booking page. */

/** The guest's page of a booking. */
export function manageUrl(publicUrl: URL, token: string): string {
  return new URL(`bookings/manage/${token}`, publicUrl).href
}

/** The club's hosted booking page (src/routes/booking-page.ts). */
export function bookingPageUrl(publicUrl: URL, clubSlug: string): string {
  return new URL(`book/${encodeURIComponent(clubSlug)}`, publicUrl).href
}
