/** The widget's texts in English and German; dates and times go through Intl in the club's time zone. */
const en = {
  title: 'Book a court',
  date: 'Date',
  previousDay: 'Previous day',
  nextDay: 'Next day',
  loading: 'Loading free times…',
  court: 'Court',
  time: 'Time',
  available: 'free',
  booked: 'booked',
  reserved: 'reserved',
  blocked: 'closed',
  notBookable: 'not bookable now',
  selected: 'selected',
  noneBookable: 'No times can be booked on this day.',
  noCourts: 'This club has no courts to book.',
  chosen: '{court}, {from}–{to}',
  continue: 'Continue',
  clear: 'Clear selection',
  pickHint: 'Choose a free time; choose the next one too for a longer booking.',
  maxReached: 'One booking of this court covers at most {count} times.',
  name: 'Your name',
  email: 'Your e-mail address',
  notes: 'Notes (optional)',
  book: 'Book',
  back: 'Back',
  booking: 'Booking…',
  booked_title: 'Booked',
  confirmation: 'The confirmation is on its way to {email}. It has a link to cancel the booking.',
  another: 'Book another time',
  taken: 'Someone booked this time a moment ago. The times are up to date again: please choose another.',
  tooMany: 'Too many attempts. Please try again in {seconds} seconds.',
  unknownClub: 'This club does not exist, or it no longer takes bookings here.',
  unavailable: 'Booking is not available at the moment. Please try again in a little while.',
  refused: 'The booking was not accepted: {detail}',
  privacy: 'Your name and e-mail address are used only for this booking.',
}

export type MessageKey = keyof typeof en
export type Lang = 'en' | 'de'

const de: Record<MessageKey, string> = {
  title: 'Platz buchen',
  date: 'Datum',
  previousDay: 'Vorheriger Tag',
  nextDay: 'Nächster Tag',
  loading: 'Freie Zeiten werden geladen …',
  court: 'Platz',
  time: 'Zeit',
  available: 'frei',
  booked: 'gebucht',
  reserved: 'reserviert',
  blocked: 'geschlossen',
  notBookable: 'jetzt nicht buchbar',
  selected: 'ausgewählt',
  noneBookable: 'An diesem Tag kann keine Zeit gebucht werden.',
  noCourts: 'Dieser Verein hat keine buchbaren Plätze.',
  chosen: '{court}, {from}–{to}',
  continue: 'Weiter',
  clear: 'Auswahl aufheben',
  pickHint: 'Wählen Sie eine freie Zeit; für eine längere Buchung auch die nächste.',
  maxReached: 'Eine Buchung dieses Platzes umfasst höchstens {count} Zeiten.',
  name: 'Ihr Name',
  email: 'Ihre E-Mail-Adresse',
  notes: 'Anmerkungen (optional)',
  book: 'Buchen',
  back: 'Zurück',
  booking: 'Wird gebucht …',
  booked_title: 'Gebucht',
  confirmation: 'Die Bestätigung ist unterwegs an {email}. Sie enthält einen Link zum Stornieren.',
  another: 'Weitere Zeit buchen',
  taken: 'Diese Zeit wurde gerade gebucht. Die Zeiten sind wieder aktuell: bitte wählen Sie eine andere.',
  tooMany: 'Zu viele Versuche. Bitte in {seconds} Sekunden erneut versuchen.',
  unknownClub: 'Diesen Verein gibt es nicht, oder er nimmt hier keine Buchungen mehr an.',
  unavailable: 'Buchen ist gerade nicht möglich. Bitte versuchen Sie es in Kürze erneut.',
  refused: 'Die Buchung wurde nicht angenommen: {detail}',
  privacy: 'Ihr Name und Ihre E-Mail-Adresse werden nur für diese Buchung verwendet.',
}

export function text(lang: Lang, key: MessageKey, params: Record<string, string> = {}): string {
  return (lang === 'de' ? de : en)[key].replace(/\{(\w+)\}/g, (_, name: string) => params[name] ?? '')
}

/** The language of the `lang` attribute, else of the page, else of the browser. */
export function languageOf(attribute: string | null | undefined): Lang {
  const wanted = [attribute, document.documentElement.lang, navigator.language].find((value) => value != null && value !== '') ?? 'en'
  return wanted.toLowerCase().startsWith('de') ? 'de' : 'en'
}
