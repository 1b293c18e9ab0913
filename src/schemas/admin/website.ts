/** The dashboard API's website settings: where the club embeds booking. */
import { Type } from '@sinclair/typebox'
import type { Static } from '@sinclair/typebox'
import { Nullable } from '../common.js'

export const ClubWebsite = Type.Object({
  websites: Type.Array(Type.String({ description: 'An origin, e.g. https://www.tc-riverside.example.' }), {
    description: 'The club\'s own websites: the only pages that may frame its hosted booking page.' }),
  booking_page_url: Type.String({ description: 'The hosted booking page, /book/{club}.' }),
  widget: Type.Object({
    script_url: Type.String({ description: 'The widget at the snippet\'s address: revalidated every few minutes, so fixes arrive.' }),
    pinned_url: Nullable(Type.String({ description: 'This build of the widget at an immutable address (null: not built).' })),
    integrity: Nullable(Type.String({ description: 'The pinned build\'s Subresource Integrity value (sha384-…).' })),
  }, { additionalProperties: false }),
}, { $id: 'ClubWebsite', additionalProperties: false, description: 'What a club needs to put booking on its website.' })
export type ClubWebsite = Static<typeof ClubWebsite>

export const ClubWebsiteChange = Type.Object({
  websites: Type.Array(Type.String({ minLength: 1, maxLength: 300 }), { maxItems: 20,
    description: 'Addresses of the club\'s websites, each an exact origin: scheme (http or https), host and optional port, '
      + 'nothing else (no wildcard, path, comma, semicolon or quote); a lone trailing slash is dropped.' }),
}, { $id: 'ClubWebsiteChange', additionalProperties: false, description: 'The club\'s websites.' })
