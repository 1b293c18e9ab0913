/**
 * English: the guest's texts the server writes, the mails about a booking and the booking's own page.
 * Every language has the same keys (index.ts).
 */
export const en = {
  mail: {
    labelled: '{label}:',
    hello: 'Hello {name},',
    helloAnonymous: 'Hello,',
    court: 'Court',
    when: 'When',
    bookingId: 'Booking id',
    confirmedSubject: 'Booking confirmed: {court}, {when} — {club}',
    confirmedIntro: 'your booking at {club} is confirmed.',
    notesHeading: 'Your notes:',
    manageText: 'Your booking\'s page, where you can cancel it until {until}:',
    manageLink: 'See or cancel your booking',
    manageUntil: '(cancellation possible until {until})',
    calendarAdds: 'The attached calendar file adds the booking to your calendar.',
    privacy: 'How {club} handles your data',
    contact: 'Questions? Reply to this mail to reach {club}.',
    descriptionManage: 'Your booking: {url}',
    cancelledSubject: 'Booking cancelled: {court}, {when} — {club}',
    cancelledByGuest: 'your booking at {club} has been cancelled as you asked.',
    cancelledByClub: 'your booking at {club} has been cancelled by the club.',
    cancelledByHold: 'your booking at {club} has been cancelled by the club: the court is not available at that time after all.',
    reason: 'Reason:',
    slotFree: 'The slot is free again. The attached calendar file removes the booking from your calendar.',
    bookAgain: 'Book another time',
    movedSubject: 'Booking moved: {court}, {when} — {club}',
    movedByGuest: 'your booking at {club} has been moved as you asked.',
    movedByClub: 'your booking at {club} has been moved by the club.',
    was: 'It was: {before}.',
    moveCalendar: 'The link in your confirmation mail still leads to your booking\'s page. The attached calendar file moves the '
      + 'booking in your calendar.',
    refusedSubject: 'Booking not accepted — {club}',
    refusedIntro: 'someone (perhaps you) tried to book a court at {club} with this e-mail address. The booking was not accepted: '
      + '{why}.',
    refusedOpen: 'this address already holds {count} upcoming bookings at {club}, the most allowed',
    refusedDaily: 'this address was used for {count} court bookings in the last 24 hours, the most allowed',
    refusedMembers: 'only members of {club} can book its courts online, and this address is not on its member list (if you are '
      + 'a member, book with the address the club has for you)',
    refusedNothing: 'If it was not you, nothing needs to be done; no booking was made with your address. You will receive at '
      + 'most one such message a day.',
  },
  manage: {
    title: 'Your booking',
    notFoundTitle: 'Booking not found',
    notFound: 'This link does not lead to a booking. It may have been mistyped, or the booking has already taken place.',
    court: 'Court',
    when: 'When',
    status: 'Status',
    confirmed: 'Confirmed',
    cancelled: 'Cancelled',
    cancelledNow: 'Your booking is cancelled. The slot is free again, and a cancellation e-mail is on its way to you.',
    cancelledEarlier: 'This booking was cancelled {by} on {at}.',
    byGuest: 'at your request',
    byClub: 'by the club',
    reason: 'Reason',
    cancelUntil: 'You can change or cancel it until {until}.',
    changeLink: 'Change the date or time',
    changeTitle: 'Change the date or time',
    changeIntro: 'Free times on {court}, as long as your booking:',
    dateLabel: 'Date',
    showTimes: 'Show free times',
    noTimes: 'No time is free on this day. Choose another date.',
    timeLegend: 'New time',
    moveButton: 'Move my booking',
    movedNow: 'Your booking has been moved. An e-mail with the calendar update is on its way to you.',
    back: 'Back to your booking',
    taken: 'That time was taken meanwhile. Choose another one.',
    invalidTime: 'That time cannot be booked. Choose one of the free times.',
    tooLateChange: 'This booking can no longer be changed here: changes were possible until {until}. Please contact the club.',
    cancelButton: 'Cancel this booking',
    cannotUndo: 'Cancelling cannot be undone; you would need to book again.',
    tooLate: 'This booking can no longer be cancelled here: cancellation was possible until {until}. Please contact the club.',
    bookAgain: 'Book a court at {club}',
    addToCalendar: 'Add to my calendar',
    languages: 'Language',
    privacy: 'Privacy notice of the club',
  },
  bookingPage: {
    title: 'Book a court',
    noScript: 'Booking on this page needs JavaScript, which is turned off in this browser. Turn it on and reload the page, or book '
      + 'with {club} directly.',
    noScriptSite: 'Booking on this page needs JavaScript, which is turned off in this browser. Turn it on and reload the page, or '
      + 'book with {club} directly:',
    unknownClub: 'There is no club at this address. Check the link, or ask the club for its booking page.',
  },
}

/** The shape every language's file has: the same sections and keys as English. */
export type GuestMessages = { readonly [Section in keyof typeof en]: { readonly [Key in keyof (typeof en)[Section]]: string } }
