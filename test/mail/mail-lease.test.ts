/**
 * Leases of the outbox: short, renewed by a heartbeat while the worker holds its batch, so a slow
 * relay never costs a live worker its mails, and a dead worker's mails are claimed again once the
 * lease runs out — seconds, not minutes.
 */
import { expect, it } from 'vitest'
import type { OutgoingMail, MailTransport } from '../../src/mail/transport.js'
import { DEFAULT_LEASE_MS, MailWorker } from '../../src/mail/worker.js'
import { describeEachDatabase } from '../helpers/databases.js'
import { COURT, TUESDAY, setUpCourts } from '../helpers/courts.js'
import { useHarness } from '../helpers/harness.js'

/** A relay that holds each message until the test lets it through. */
class HeldTransport implements MailTransport {
  readonly description = 'held'
  readonly sent: OutgoingMail[] = []
  private release: (() => void) | undefined
  waiting = 0
  send(mail: OutgoingMail): Promise<void> {
    this.waiting++
    return new Promise((resolve) => {
      this.release = () => {
        this.waiting--
        this.sent.push(mail)
        resolve()
      }
    })
  }

  releaseOne(): void {
    this.release?.()
  }

  close(): void {
    return undefined
  }
}

class RecordingTransport implements MailTransport {
  readonly description = 'recording'
  readonly sent: OutgoingMail[] = []
  send(mail: OutgoingMail): Promise<void> {
    this.sent.push(mail)
    return Promise.resolve()
  }

  close(): void {
    return undefined
  }
}

describeEachDatabase('mail leases', (dialect) => {
  const harness = useHarness(dialect, async (h) => {
    await setUpCourts(h, 'riverside')
  })

  it('are renewed while a live worker holds them, and claimed by another worker once the holder stops renewing', async () => {
    const h = harness.current
    const booked = await h.request({ method: 'POST', url: '/api/v1/public/riverside/courts/book', payload: { court_id: COURT.allDay,
      start_time: `${TUESDAY}T06:00:00+02:00`, end_time: `${TUESDAY}T07:00:00+02:00`, booker_name: 'Lea Lease', booker_email: 'lea@example.org' } })
    expect(booked.status).toBe(201)
    expect(DEFAULT_LEASE_MS).toBe(15_000)
    const slow = new HeldTransport()
    const holder = new MailWorker(h.context.db, h.clock, slow, 'from@example.org')
    const other = new RecordingTransport()
    const rival = new MailWorker(h.context.db, h.clock, other, 'from@example.org')

    const round = holder.runOnce()
    await expect.poll(() => slow.waiting).toBe(1)
    // The heartbeat keeps the lease ahead of the clock while the relay is slow.
    for (let i = 0; i < 4; i++) {
      h.clock.advance(DEFAULT_LEASE_MS / 3)
      expect(await holder.renewLeases()).toBe(1)
      expect(await rival.runOnce()).toBe(0)
    }
    // Without a heartbeat (the holder was killed), the mail is claimed again once the lease has run out.
    h.clock.advance(DEFAULT_LEASE_MS - 1)
    expect(await rival.runOnce()).toBe(0)
    h.clock.advance(1)
    expect(await rival.runOnce()).toBe(1)
    expect(other.sent.map((mail) => mail.subject)).toEqual([expect.stringContaining('Booking confirmed')])
    // The stalled holder no longer owns the lease: its heartbeat renews nothing.
    expect(await holder.renewLeases()).toBe(0)
    slow.releaseOne()
    expect(await round).toBe(1)
  })
})
