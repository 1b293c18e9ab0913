/** A hold's form: its fields from a hold (or a new one's), the body they save, and a hold's times in words. */
import type { Schemas } from '../../api/client'
import { t } from '../../i18n.svelte'
import type { MessageKey } from '../../i18n.svelte'
import { clubLocalToInstant } from '../../lib/zoned'
import type { Weekday } from '../../lib/zoned'

type Hold = Schemas['AdminHold']

/** What the form holds: a weekly hold's weekday, times and validity, or a single one's start and end at the club. */
export interface HoldFields {
  id: string | null
  kind: 'block' | 'reservation'
  weekly: boolean
  weekday: Weekday
  start: string
  end: string
  validFrom: string
  validUntil: string
  from: string
  to: string
  reason: string
}

/** The form of a hold, or of a new one (a weekly reservation; a single one in the week shown, `weekOf`). */
export function holdFields(hold: Hold | null, weekOf: string): HoldFields {
  return {
    id: hold?.id ?? null, kind: hold?.kind ?? 'reservation', weekly: hold === null || hold.weekday !== null,
    weekday: hold?.weekday ?? 'mon', start: hold?.start_time ?? '18:00',
    end: hold?.end_time === '24:00' ? '00:00' : hold?.end_time ?? '20:00',
    validFrom: hold?.valid_from ?? '', validUntil: hold?.valid_until ?? '',
    from: hold?.starts_at?.slice(0, 16) ?? `${weekOf}T08:00`, to: hold?.ends_at?.slice(0, 16) ?? `${weekOf}T12:00`,
    reason: hold?.reason ?? '',
  }
}

/** What saving the form sends; `cancel` with the reason `why` cancels the bookings the hold covers. */
export function holdSave(form: HoldFields, timeZone: string, cancel: boolean, why = ''): Schemas['HoldSave'] {
  const reason = form.reason.trim() === '' ? null : form.reason.trim()
  const cancelling = cancel ? { cancel_displaced_bookings: true, cancellation_reason: why.trim() } : {}
  const common = { kind: form.kind, reason, ...cancelling }
  if (form.weekly) {
    return { ...common, weekday: form.weekday, start_time: form.start, end_time: form.end === '00:00' ? '24:00' : form.end,
      valid_from: form.validFrom === '' ? null : form.validFrom, valid_until: form.validUntil === '' ? null : form.validUntil }
  }
  return { ...common, starts_at: clubLocalToInstant(form.from, timeZone), ends_at: clubLocalToInstant(form.to, timeZone) }
}

/** When a hold applies: every weekday at its times (within its validity), or from one time to another. */
export function holdWhen(hold: Hold): string {
  if (hold.weekday !== null) {
    const range = [hold.valid_from === null ? '' : t('holds.from', { date: hold.valid_from }),
      hold.valid_until === null ? '' : t('holds.until', { date: hold.valid_until })].filter((part) => part !== '').join(' ')
    return `${t('holds.every', { day: t(`dayLong.${hold.weekday}` as MessageKey) })} ${hold.start_time ?? ''}–${hold.end_time ?? ''}`
      + (range === '' ? '' : ` (${range})`)
  }
  return `${(hold.starts_at ?? '').slice(0, 16).replace('T', ' ')} – ${(hold.ends_at ?? '').slice(0, 16).replace('T', ' ')}`
}
