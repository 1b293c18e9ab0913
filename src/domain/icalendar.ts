/**
 * iCalendar (RFC 5545) as the service writes it: the mails' calendar parts (src/mail/booking-mail.ts)
 * and the calendar feeds (src/services/calendar-feeds.ts). Instants in UTC (`…Z`, so no VTIMEZONE is
 * needed), TEXT escaped, parameters quoted, lines folded at 75 octets, CRLF line ends.
 */

/** RFC 5545 TEXT escaping (§3.3.11). */
export function icsText(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n').replace(/\r/g, '')
}

/** A UTC DATE-TIME (§3.3.5, form #2). */
export function icsInstant(instant: number): string {
  return new Date(instant).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '')
}

/** A parameter value (§3.2): quoted, without the characters a quoted value cannot hold. */
export function icsParam(text: string): string {
  return `"${text.replace(/["\r\n\t]/g, ' ')}"`
}

/** A URI or address as a property value: on one line. */
export function icsUri(uri: string): string {
  return uri.replace(/[\r\n]/g, '')
}

/** Lines longer than 75 octets are folded (§3.1), never inside a UTF-8 sequence. */
export function fold(line: string): string {
  const out: string[] = []
  let current = ''
  let bytes = 0
  for (const char of line) {
    const size = Buffer.byteLength(char)
    if (bytes + size > (out.length === 0 ? 75 : 74)) {
      out.push(current)
      current = ''
      bytes = 0
    }
    current += char
    bytes += size
  }
  out.push(current)
  return out.join('\r\n ')
}

/** A VCALENDAR of these lines (its properties, then its components' lines), folded, CRLF-terminated. */
export function vcalendar(properties: readonly string[], components: readonly (readonly string[])[]): string {
  return ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Club Platform//Court booking//EN', ...properties,
    ...components.flat(), 'END:VCALENDAR'].map(fold).join('\r\n') + '\r\n'
}
