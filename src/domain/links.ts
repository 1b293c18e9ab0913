/**
 * Text a stranger can make the service mail (a booker's name and notes) must not carry links: the
 * booking endpoint would otherwise be a way to send anyone a phishing link with a club's name on
 * it. What counts as a link is generous — a scheme, `www.`, an e-mail address, or anything shaped
 * like a host name (`word.tld`) — so a name such as "St.Pauli" without a space is refused too; the
 * answer says how to write it.
 */
const LINK = new RegExp([
  String.raw`\b[a-z][a-z0-9+.-]*:\/\/\S*`,
  String.raw`\b(?:mailto|javascript|data|tel|sms|file):\S+`,
  String.raw`\bwww\.\S*`,
  String.raw`\S+@\S+`,
  String.raw`[\p{L}\p{N}-]{2,}(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,}\b(?:[/?#]\S*)?`,
].join('|'), 'giu')

export const LINK_REMOVED = '[link removed]'

export function containsLink(text: string): boolean {
  LINK.lastIndex = 0
  const found = LINK.test(text)
  LINK.lastIndex = 0
  return found
}

/** The text with every link replaced by a neutral marker. */
export function withoutLinks(text: string): string {
  return text.replace(LINK, LINK_REMOVED)
}
