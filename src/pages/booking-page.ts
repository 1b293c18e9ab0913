/**
 * The hosted booking page /book/{club}: the booking widget on a page of its own, for clubs without
 * a web developer and for site builders that only take iframes. Only the club's own websites may
 * frame it (frame-ancestors from the club's list, and the service's own origin for the dashboard's
 * preview); in a frame, the widget tells the parent page its height (a `club-booking:height`
 * message) so that the iframe never scrolls inside.
 */
import { createHash } from 'node:crypto'
import { isExactOrigin } from '../domain/web-origin.js'
import { escapeHtml } from '../domain/html.js'
import { bookingPageText } from '../i18n/guest/index.js'
import type { GuestLanguage } from '../domain/languages.js'

const STYLE = 'html{color-scheme:light}body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1b1f24;'
  + 'background:#fff}main{max-width:60rem;margin:0 auto;padding:0.5rem}h1{font-size:1.3rem;margin:0.5rem}'
  + '.noscript{margin:0.5rem;padding:0.75rem;border:1px solid #b3261e;border-radius:0.375rem}a{color:#0b5cad}'
const STYLE_HASH = `'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`

export interface BookingPageView {
  readonly club: { readonly slug: string, readonly name: string }
  readonly language: GuestLanguage
  /** The widget's address (the pinned build) and its Subresource Integrity value. */
  readonly script: { readonly path: string, readonly integrity: string }
  /** The origins that may frame the page. */
  readonly frameAncestors: readonly string[]
  /** The day to start on and the one court to offer (a waiting list mail's link to a freed time), when the link names them. */
  readonly start?: { readonly date?: string, readonly court?: string }
}

/** With JavaScript off the widget cannot run: the page says so, and where to book instead. */
function noScript(view: BookingPageView): string {
  const site = view.frameAncestors.find(isExactOrigin)
  const link = site === undefined ? '' : ` <a href="${escapeHtml(site)}">${escapeHtml(new URL(site).host)}</a>`
  const text = site === undefined
    ? escapeHtml(bookingPageText(view.language, 'noScript', { club: view.club.name }))
    : `${escapeHtml(bookingPageText(view.language, 'noScriptSite', { club: view.club.name }))}${link}`
  return `<noscript><p class="noscript">${text}</p></noscript>`
}

export function renderBookingPage(view: BookingPageView): string {
  return '<!doctype html>'
    + `<html lang="${view.language}" data-club-booking-page><head><meta charset="utf-8">`
    + '<meta name="viewport" content="width=device-width, initial-scale=1">'
    + `<title>${escapeHtml(`${bookingPageText(view.language, 'title')} · ${view.club.name}`)}</title><style>${STYLE}</style>`
    + `<script type="module" src="${escapeHtml(view.script.path)}" integrity="${escapeHtml(view.script.integrity)}"></script>`
    + '</head><body><main>'
    + `<h1>${escapeHtml(`${view.club.name}: ${bookingPageText(view.language, 'title')}`)}</h1>`
    + noScript(view)
    + `<club-booking club="${escapeHtml(view.club.slug)}" lang="${view.language}"`
    + (view.start?.date === undefined ? '' : ` date="${escapeHtml(view.start.date)}"`)
    + (view.start?.court === undefined ? '' : ` court="${escapeHtml(view.start.court)}"`)
    + '></club-booking>'
    + '</main></body></html>'
}

export function renderUnknownClubPage(language: GuestLanguage): string {
  const title = escapeHtml(bookingPageText(language, 'title'))
  return `<!doctype html><html lang="${language}"><head><meta charset="utf-8">`
    + '<meta name="viewport" content="width=device-width, initial-scale=1">'
    + `<title>${title}</title><style>${STYLE}</style></head><body><main><h1>${title}</h1>`
    + `<p>${escapeHtml(bookingPageText(language, 'unknownClub'))}</p></main></body></html>`
}

/**
 * The page's headers: only its own script and style, framed only by the given origins (and its own);
 * a stored value that is not an exact origin (src/domain/web-origin.ts) is left out of the policy.
 */
export function bookingPageHeaders(frameAncestors: readonly string[]): Record<string, string> {
  const origins = frameAncestors.filter(isExactOrigin)
  return {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-cache',
    'content-security-policy': [`default-src 'none'`, `script-src 'self'`, `style-src ${STYLE_HASH}`, `connect-src 'self'`,
      `frame-ancestors 'self'${origins.map((origin) => ` ${origin}`).join('')}`, `base-uri 'none'`, `form-action 'none'`]
      .join('; '),
    'referrer-policy': 'strict-origin-when-cross-origin',
    'x-content-type-options': 'nosniff',
  }
}
