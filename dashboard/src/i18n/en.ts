/** The dashboard's English texts, one module per area; every key begins with a prefix that belongs to one area only. */
import { booking } from './en/booking'
import { common } from './en/common'
import { content } from './en/content'
import { developer } from './en/developer'

export const en = { ...common, ...developer, ...booking, ...content }

export type MessageKey = keyof typeof en
