/**
 * The hosted booking page /book/{club}: the booking widget on a page of its own, for clubs without
 * a web developer and for site builders that only take iframes — and, inside the widget's element
 * (its fallback content, which the widget's view replaces once it runs), the same booking without
 * JavaScript: a day's free times per court, a plain form posted to the page, the refusals at their
 * fields. Only the club's own websites may frame it (frame-ancestors from the club's list, and the
 * service's own origin for the dashboard's preview); in a frame, the widget tells the parent page its
 * height (a `club-booking:height` message) so that the iframe never scrolls inside.
 */
import { createHash } from 'node:crypto'
import { isExactOrigin } from '../domain/web-origin.js'
import { escapeHtml } from '../domain/html.js'
import { bookingPageText } from '../i18n/guest/index.js'
import { GUEST_LANGUAGES, LANGUAGE_NAMES, LOCALES } from '../domain/languages.js'
import type { GuestLanguage } from '../domain/languages.js'
import { dateTimeFormat } from '../domain/zoned-time.js'

const STYLE = 'html{color-scheme:light}body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1b1f24;'
  + 'background:#fff;line-height:1.5}main{max-width:60rem;margin:0 auto;padding:0.5rem}h1{font-size:1.3rem;margin:0.5rem}'
  + 'a{color:#0b5cad}.page{padding:0.5rem}h2{font-size:1.1rem;margin:1rem 0 0.5rem}'
  + 'fieldset{border:0;padding:0;margin:0 0 1rem}legend{font-weight:600;margin-bottom:0.5rem}'
  + '.times{display:grid;grid-template-columns:repeat(auto-fill,minmax(9.5rem,1fr));gap:0.5rem}'
  + '.times label{display:flex;align-items:center;gap:0.5rem;border:1px solid #8a8f98;border-radius:0.375rem;'
  + 'padding:0.5rem 0.75rem;min-height:44px;box-sizing:border-box;background:#e7f5ea}.times small{display:block;color:#3b424c}'
  + '.stack{display:flex;flex-direction:column;align-items:flex-start;gap:0.25rem;max-width:28rem}'
  + 'input,select,textarea,button{font:inherit;min-height:44px;box-sizing:border-box}'
  + 'input[type=text],input[type=email],input[type=date],select,textarea{padding:0.5rem;border:1px solid #6b7480;'
  + 'border-radius:0.375rem;width:100%;background:#fff;color:inherit}input[type=radio]{min-height:0;width:1.25rem;height:1.25rem;margin:0;flex:none}'
  + 'button{border:0;border-radius:0.375rem;padding:0.5rem 1.25rem;font-weight:600;background:#0b5cad;color:#fff;cursor:pointer}'
  + '.day{display:flex;flex-wrap:wrap;align-items:end;gap:0.5rem}.day label{display:flex;flex-direction:column}'
  + '.days{display:flex;flex-wrap:wrap;gap:0 1.5rem}.days a,.languages a,.alert a{display:inline-flex;align-items:center;'
  + 'min-height:44px;min-width:44px}'
  + '.languages ul{list-style:none;padding:0;margin:0;display:flex;flex-wrap:wrap;gap:0 1rem}.languages [aria-current]{font-weight:600;'
  + 'display:inline-flex;align-items:center;min-height:44px}'
  + '.hint{color:#4a5360;font-size:0.95rem}.error{color:#a4161a;margin:0}[aria-invalid=true]{border:2px solid #a4161a}'
  + '.alert{border:1px solid #a4161a;background:#fde8e8;color:#7a1114;border-radius:0.375rem;padding:0.5rem 1rem;margin:0.5rem 0}'
  + '.alert h2{margin:0.25rem 0;font-size:1.05rem}.alert a{color:#7a1114}'
  + 'a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible,textarea:focus-visible,.alert:focus-visible'
  + '{outline:3px solid #000;outline-offset:2px;box-shadow:0 0 0 2px #fff}'
const STYLE_HASH = `'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`

/** What the guest typed into the form: the time chosen (`<court id>|<start>`), how many times, name, address, notes. */
export interface FormFields {
  readonly time: string
  readonly slots: string
  readonly name: string
  readonly email: string
  readonly notes: string
}

/** What the widget starts with: a day, one court, a time to choose, and the name and address to fill in. */
export interface WidgetStart {
  readonly date?: string
  readonly court?: string
  readonly time?: string
  readonly name?: string
  readonly email?: string
}

/** One free time the form offers: its court, its start and end at the club, and whether it can be cancelled online if booked. */
export interface OfferedTime {
  readonly courtId: string
  readonly start: string
  readonly end: string
  readonly late: boolean
}

/** A court's free times on the day, and the most consecutive times one booking of it may cover. */
export interface OfferedCourt {
  readonly id: string
  readonly name: string
  readonly maxSlots: number
  readonly times: readonly OfferedTime[]
}

/** The booking form without JavaScript: the day, its free times, what the guest typed, and why the last try was refused. */
export interface BookingFormView {
  readonly date: string
  readonly today: string
  readonly timeZone: string
  readonly courts: readonly OfferedCourt[]
  /** The Idempotency-Key this form's booking is sent with: a reload of the answer, or a second tap, books once. */
  readonly key: string
  readonly values: FormFields
  /** The refusal, in the guest's words: each field's reason, and those of no field. */
  readonly refusal?: { readonly fields: Readonly<Record<string, string>>, readonly others: readonly string[] }
  /** The club's cancellation policy, said before the guest books; and how the club is reached. */
  readonly policy: string
  readonly contact: string
}

export interface BookingPageView {
  readonly club: { readonly slug: string, readonly name: string }
  readonly language: GuestLanguage
  /** The widget's address (the pinned build) and its Subresource Integrity value. */
  readonly script: { readonly path: string, readonly integrity: string }
  /** The origins that may frame the page. */
  readonly frameAncestors: readonly string[]
  /** What the widget starts with: a day, one court, a time to choose, the name and address to fill in (a waiting list link's). */
  readonly start?: WidgetStart
  readonly form: BookingFormView
  /** The page's address in another language, keeping its day. */
  readonly languageHref: (language: GuestLanguage) => string
  /** The page's address on another day. */
  readonly dayHref: (date: string) => string
  readonly action: string
}

type Params = Readonly<Record<string, string | number>>

function say(language: GuestLanguage, key: Parameters<typeof bookingPageText>[1], params: Params = {}): string {
  return escapeHtml(bookingPageText(language, key, params))
}

function attribute(name: string, value: string | undefined): string {
  return value === undefined || value === '' ? '' : ` ${name}="${escapeHtml(value)}"`
}

/** The date `days` after a date (YYYY-MM-DD). */
function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10)
}

/** A field of the form: its label, its control, its refusal beside it (described by it, marked invalid). */
function field(id: string, label: string, error: string | undefined, control: (attributes: string) => string): string {
  const attributes = error === undefined ? '' : ` aria-invalid="true" aria-describedby="${id}-error"`
  return `<label for="${id}">${label}</label>${control(attributes)}`
    + (error === undefined ? '' : `<p class="error" id="${id}-error">${escapeHtml(error)}</p>`)
}

/** The refusal's summary: what to correct, each field's reason linking to the field; it takes the focus when the page loads. */
function alert(view: BookingPageView): string {
  const { refusal } = view.form
  if (refusal === undefined) return ''
  const fields = Object.entries(refusal.fields).map(([id, reason]) => `<li><a href="#${id}">${escapeHtml(reason)}</a></li>`)
  const others = refusal.others.map((reason) => `<li>${escapeHtml(reason)}</li>`)
  return `<div class="alert" role="alert" tabindex="-1" id="refused"${fields.length === 0 ? ' autofocus' : ''}>`
    + `<h2>${say(view.language, 'refusedTitle')}</h2><ul>${[...others, ...fields].join('')}</ul></div>`
}

/** The day's free times per court, as radio buttons; a time that could no longer be cancelled online once booked says so. */
function timesOf(view: BookingPageView, focused: boolean): string {
  const { form, language } = view
  const clock = dateTimeFormat(LOCALES[language], { hour: '2-digit', minute: '2-digit', hourCycle: 'h23',
    timeZone: form.timeZone })
  const until = (end: string) => (clock.format(Date.parse(end)) === '00:00' ? '24:00' : clock.format(Date.parse(end)))
  const error = form.refusal?.fields.time
  const courts = form.courts.filter((court) => court.times.length > 0)
  if (form.courts.length === 0) return `<p>${say(language, 'noCourts')}</p>`
  if (courts.length === 0) return `<p role="status">${say(language, 'noTimes')}</p>`
  const late = courts.some((court) => court.times.some((time) => time.late))
  return `<fieldset id="time"${error === undefined ? '' : ' aria-describedby="time-error"'}><legend>${say(language, 'timeLegend')}</legend>`
    + (error === undefined ? '' : `<p class="error" id="time-error">${escapeHtml(error)}</p>`)
    + courts.map((court) => `<fieldset><legend>${escapeHtml(court.name)}</legend><div class="times">${court.times.map((time) => {
      const value = `${time.courtId}|${time.start}`
      const first = focused && time === courts[0]?.times[0]
      return `<label><input type="radio" name="time" value="${escapeHtml(value)}" required${first ? ' autofocus' : ''}`
        + `${form.values.time === value ? ' checked' : ''}><span>${escapeHtml(`${clock.format(Date.parse(time.start))}–${until(time.end)}`)}`
        + `${time.late ? `<small>${say(language, 'lateMark')}</small>` : ''}</span></label>`
    }).join('')}</div></fieldset>`).join('')
    + (late ? `<p class="hint">${say(language, 'lateNote')} ${escapeHtml(form.contact)}</p>` : '')
    + '</fieldset>'
}

/** The page's languages, as links to the page in each (the one shown is marked). */
function languageLinks(view: BookingPageView): string {
  const { language } = view
  const items = GUEST_LANGUAGES.map((other) => (other === language
    ? `<li><span aria-current="true" lang="${other}">${LANGUAGE_NAMES[other]}</span></li>`
    : `<li><a href="${escapeHtml(view.languageHref(other))}" hreflang="${other}" lang="${other}">${LANGUAGE_NAMES[other]}</a></li>`))
  return `<nav class="languages" aria-label="${say(language, 'languages')}"><ul>${items.join('')}</ul></nav>`
}

/** The day shown, another by its date (a GET form), and the days before and after it. */
function dayChoice(view: BookingPageView): string {
  const { form, language } = view
  const day = dateTimeFormat(LOCALES[language], { dateStyle: 'full', timeZone: 'UTC' })
    .format(Date.parse(`${form.date}T12:00:00Z`))
  const earlier = form.date > form.today
    ? `<a href="${escapeHtml(view.dayHref(addDays(form.date, -1)))}">${say(language, 'previousDay')}</a>`
    : ''
  return `<form method="get" class="day"><input type="hidden" name="lang" value="${language}">`
    + `<label>${say(language, 'dateLabel')}<input type="date" name="date" value="${escapeHtml(form.date)}" min="${form.today}" `
    + `required></label><button type="submit">${say(language, 'showTimes')}</button></form>`
    + `<p class="days">${earlier}<a href="${escapeHtml(view.dayHref(addDays(form.date, 1)))}">${say(language, 'nextDay')}</a></p>`
    + `<h2>${escapeHtml(day)}</h2>`
}

/** The guest's part of the form: the length, the policy, name, address and notes (each with its refusal), and Book. */
function guestFields(view: BookingPageView, first: string | undefined): string {
  const { form, language } = view
  const errors = form.refusal?.fields ?? {}
  const focus = (id: string) => (first === id ? ' autofocus' : '')
  const most = Math.max(1, ...form.courts.map((court) => court.maxSlots))
  const lengths = Array.from({ length: most }, (_, i) => String(i + 1)).map((count) => `<option value="${count}"`
    + `${form.values.slots === count ? ' selected' : ''}>${say(language, 'times', { count: Number(count) })}</option>`)
  const name = field('name', say(language, 'name'), errors.name, (a) => '<input type="text" id="name" name="name" required '
    + `maxlength="100" autocomplete="name" value="${escapeHtml(form.values.name)}"${a}${focus('name')}>`)
  const email = field('email', say(language, 'email'), errors.email, (a) => '<input type="email" id="email" name="email" required '
    + `maxlength="254" autocomplete="email" value="${escapeHtml(form.values.email)}"${a}${focus('email')}>`)
  const notes = field('notes', say(language, 'notes'), errors.notes, (a) => '<textarea id="notes" name="notes" maxlength="500" '
    + `rows="2"${a}${focus('notes')}>${escapeHtml(form.values.notes)}</textarea>`)
  return '<div class="stack">'
    + `<label for="slots">${say(language, 'lengthLabel')}</label><select id="slots" name="slots">${lengths.join('')}</select>`
    + `<p class="hint">${escapeHtml(form.policy)}</p>${name}${email}${notes}`
    + `<p class="hint">${say(language, 'privacy')}</p><button type="submit">${say(language, 'book')}</button></div>`
}

/** The page without JavaScript: the day's free times and the form, in the guest's language. */
function noScriptBooking(view: BookingPageView): string {
  const { form } = view
  const errors = form.refusal?.fields ?? {}
  const first = ['time', 'name', 'email', 'notes'].find((id) => errors[id] !== undefined)
  const offered = form.courts.some((court) => court.times.length > 0)
  return `<div class="page">${languageLinks(view)}${alert(view)}${dayChoice(view)}`
    + `<form method="post" action="${escapeHtml(view.action)}"><input type="hidden" name="key" value="${escapeHtml(form.key)}">`
    + `<input type="hidden" name="date" value="${escapeHtml(form.date)}">${timesOf(view, first === 'time')}`
    + `${offered ? guestFields(view, first) : ''}</form></div>`
}

export function renderBookingPage(view: BookingPageView): string {
  const { start } = view
  return '<!doctype html>'
    + `<html lang="${view.language}" data-club-booking-page><head><meta charset="utf-8">`
    + '<meta name="viewport" content="width=device-width, initial-scale=1">'
    + `<title>${escapeHtml(`${bookingPageText(view.language, 'title')} · ${view.club.name}`)}</title><style>${STYLE}</style>`
    + `<script type="module" src="${escapeHtml(view.script.path)}" integrity="${escapeHtml(view.script.integrity)}"></script>`
    + '</head><body><main>'
    + `<h1>${escapeHtml(`${view.club.name}: ${bookingPageText(view.language, 'title')}`)}</h1>`
    + `<club-booking club="${escapeHtml(view.club.slug)}" lang="${view.language}"`
    + attribute('date', start?.date) + attribute('court', start?.court) + attribute('start', start?.time)
    + attribute('booker-name', start?.name) + attribute('booker-email', start?.email)
    + `>${noScriptBooking(view)}</club-booking>`
    + '</main></body></html>'
}

/** A page that says one thing: there is no such club, or the service cannot take the booking now. */
export function renderNoticePage(language: GuestLanguage, said: string): string {
  const title = escapeHtml(bookingPageText(language, 'title'))
  return `<!doctype html><html lang="${language}"><head><meta charset="utf-8">`
    + '<meta name="viewport" content="width=device-width, initial-scale=1">'
    + `<title>${title}</title><style>${STYLE}</style></head><body><main><h1>${title}</h1>`
    + `<p>${escapeHtml(said)}</p></main></body></html>`
}

export function renderUnknownClubPage(language: GuestLanguage): string {
  return renderNoticePage(language, bookingPageText(language, 'unknownClub'))
}

/**
 * The page's headers: only its own script and style, its forms posted to itself, framed only by the
 * given origins (and its own); a stored value that is not an exact origin (src/domain/web-origin.ts)
 * is left out of the policy.
 */
export function bookingPageHeaders(frameAncestors: readonly string[]): Record<string, string> {
  const origins = frameAncestors.filter(isExactOrigin)
  return {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'content-security-policy': [`default-src 'none'`, `script-src 'self'`, `style-src ${STYLE_HASH}`, `connect-src 'self'`,
      `frame-ancestors 'self'${origins.map((origin) => ` ${origin}`).join('')}`, `base-uri 'none'`, `form-action 'self'`]
      .join('; '),
    'referrer-policy': 'strict-origin-when-cross-origin',
    'x-content-type-options': 'nosniff',
  }
}
