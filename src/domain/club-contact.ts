/**
 * How a club can be reached, as guests read it: its phone number and postal address (the e-mail
 * address is the booking rules' `contact_email`). One rule for the dashboard's schema and the
 * command line.
 */

/** A phone number as people write one: digits, spaces, `+ ( ) . / -`, 3 to 40 characters, at least 3 digits. */
export const PHONE_PATTERN = '^(?=(?:[^0-9]*[0-9]){3})[+0-9 ()./-]{3,40}$'

/** A postal address on one line (commas between its parts), at most 300 characters, no control characters. */
export const ADDRESS_PATTERN = '^[^\\u0000-\\u001f\\u007f]{1,300}$'

/** The phone number as given (trimmed), or why it is not one. */
export function phoneNumber(text: string): string | { readonly refused: string } {
  const value = text.trim()
  return new RegExp(PHONE_PATTERN).test(value)
    ? value
    : { refused: 'a phone number: digits, spaces and + ( ) . / -, 3 to 40 characters' }
}

/** The postal address as given (trimmed), or why it is not one. */
export function postalAddress(text: string): string | { readonly refused: string } {
  const value = text.trim()
  return new RegExp(ADDRESS_PATTERN).test(value) ? value : { refused: 'an address on one line, at most 300 characters' }
}

/** The `tel:` link of a phone number: its digits and a leading `+`. */
export function telUri(phone: string): string {
  return `tel:${phone.trim().startsWith('+') ? '+' : ''}${phone.replace(/[^0-9]/g, '')}`
}
