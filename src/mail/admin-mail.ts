/**
 * The dashboard's mails: an invitation to administer a club, and a sign-in link. Both carry a
 * single-use link built from the service's public URL; the link opens a page whose button signs
 * in (opening a link never does, so a mail scanner that follows it uses nothing up).
 */
import type { AdminRole } from '../domain/admin-roles.js'
import { escapeHtml } from '../domain/html.js'

export interface DashboardMail {
  readonly subject: string
  readonly text: string
  readonly html: string
}

function render(subject: string, paragraphs: readonly string[], link: { url: string, label: string },
  after: readonly string[]): DashboardMail {
  const text = [...paragraphs.flatMap((paragraph) => [paragraph, '']), link.url, '', ...after.flatMap((paragraph) => [paragraph, ''])]
    .join('\n').trimEnd()
  const html = '<!doctype html><html><body style="font-family:sans-serif">'
    + paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`).join('')
    + `<p><a href="${escapeHtml(link.url)}">${escapeHtml(link.label)}</a></p>`
    + `<p style="font-size:small">${escapeHtml(link.url)}</p>`
    + after.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`).join('')
    + '</body></html>'
  return { subject: subject.replace(/[\r\n\t]+/g, ' '), text, html }
}

/** Each role as the invitation names it, with what it may do (docs/dashboard.md, "Roles"). */
const ROLE_IN_MAIL: Readonly<Record<AdminRole, string>> = {
  owner: 'an owner (everything, including the team and the audit log)',
  admin: 'an admin (API keys, courts, bookings, the website and the club\'s content)',
  editor: 'an editor (news, events, training groups, competition results and members)',
}

export function renderInvitation(input: { clubName: string, role: AdminRole, url: string, expiresInDays: number }):
DashboardMail {
  return render(`Invitation: ${input.role} of ${input.clubName} on Club Platform`, [
    'Hello,',
    `you have been invited to ${input.clubName} on Club Platform as ${ROLE_IN_MAIL[input.role]}. `
    + 'Open this link to accept and sign in:',
  ], { url: input.url, label: `Accept the invitation to ${input.clubName}` }, [
    `The link works once and for ${String(input.expiresInDays)} days. If you did not expect this invitation, ignore this mail.`,
  ])
}

export function renderSignInLink(input: { url: string, validMinutes: number }): DashboardMail {
  return render('Your sign-in link for the Club Platform dashboard', [
    'Hello,',
    'open this link to sign in to the club dashboard:',
  ], { url: input.url, label: 'Sign in to the dashboard' }, [
    `The link works once and for ${String(input.validMinutes)} minutes. If you did not ask to sign in, ignore this mail: `
    + 'nobody can sign in without it.',
  ])
}

/** To each owner of a club when one of its webhook endpoints is disabled by the service. */
export function renderEndpointDisabled(input: { clubName: string, endpointUrl: string, why: string, dashboardUrl: string }):
DashboardMail {
  return render(`Webhook endpoint disabled — ${input.clubName}`, [
    'Hello,',
    `the webhook endpoint ${input.endpointUrl} of ${input.clubName} was disabled: ${input.why}. It receives no events until `
    + 'it is enabled again. The delivery log shows what was sent and what it answered; deliveries that did not arrive can be '
    + 'replayed from there once the endpoint works.',
  ], { url: input.dashboardUrl, label: 'Open Developer access' }, [
    'You receive this mail because you are an owner of the club.',
  ])
}
