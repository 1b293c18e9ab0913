/** The dashboard's German texts: each area has exactly the keys of its English one, or it does not compile. */
import { booking } from './de/booking'
import { common } from './de/common'
import { content } from './de/content'
import { developer } from './de/developer'
import type { MessageKey } from './en'

export const de: Record<MessageKey, string> = { ...common, ...developer, ...booking, ...content }
