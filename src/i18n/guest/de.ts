/** Deutsch (Sie). */
import type { GuestMessages } from './en.js'

export const de: GuestMessages = {
  mail: {
    labelled: '{label}:',
    hello: 'Hallo {name},',
    helloAnonymous: 'Hallo,',
    court: 'Platz',
    when: 'Wann',
    bookingId: 'Buchungsnummer',
    confirmedSubject: 'Buchung bestätigt: {court}, {when} — {club}',
    confirmedIntro: 'Ihre Buchung bei {club} ist bestätigt.',
    notesHeading: 'Ihre Anmerkungen:',
    manageText: 'Die Seite Ihrer Buchung, auf der Sie sie bis {until} stornieren können:',
    manageLink: 'Buchung ansehen oder stornieren',
    manageUntil: '(Stornieren möglich bis {until})',
    calendarAdds: 'Die angehängte Kalenderdatei trägt die Buchung in Ihren Kalender ein.',
    privacy: 'Wie {club} mit Ihren Daten umgeht',
    contact: 'Fragen? Antworten Sie auf diese E-Mail, um {club} zu erreichen.',
    descriptionManage: 'Ihre Buchung: {url}',
    cancelledSubject: 'Buchung storniert: {court}, {when} — {club}',
    cancelledByGuest: 'Ihre Buchung bei {club} wurde wie gewünscht storniert.',
    cancelledByClub: 'Ihre Buchung bei {club} wurde vom Verein storniert.',
    cancelledByHold: 'Ihre Buchung bei {club} wurde vom Verein storniert: Der Platz ist zu dieser Zeit doch nicht verfügbar.',
    reason: 'Grund:',
    slotFree: 'Die Zeit ist wieder frei. Die angehängte Kalenderdatei entfernt die Buchung aus Ihrem Kalender.',
    bookAgain: 'Eine andere Zeit buchen',
    movedSubject: 'Buchung verschoben: {court}, {when} — {club}',
    movedByGuest: 'Ihre Buchung bei {club} wurde wie gewünscht verschoben.',
    movedByClub: 'Ihre Buchung bei {club} wurde vom Verein verschoben.',
    was: 'Vorher: {before}.',
    moveCalendar: 'Der Link in Ihrer Bestätigung führt weiterhin zur Seite Ihrer Buchung. Die angehängte Kalenderdatei verschiebt '
      + 'die Buchung in Ihrem Kalender.',
    refusedSubject: 'Buchung nicht angenommen — {club}',
    refusedIntro: 'jemand (vielleicht Sie) hat versucht, mit dieser E-Mail-Adresse einen Platz bei {club} zu buchen. Die Buchung '
      + 'wurde nicht angenommen: {why}.',
    refusedOpen: 'Diese Adresse hat bereits {count} anstehende Buchungen bei {club}, mehr sind nicht erlaubt',
    refusedDaily: 'Mit dieser Adresse wurden in den letzten 24 Stunden {count} Plätze gebucht, mehr sind nicht erlaubt',
    refusedMembers: 'Nur Mitglieder von {club} können online buchen, und diese Adresse steht nicht auf der Mitgliederliste (als '
      + 'Mitglied buchen Sie bitte mit der Adresse, die der Verein von Ihnen hat)',
    refusedNothing: 'Wenn Sie es nicht waren, ist nichts zu tun; mit Ihrer Adresse wurde keine Buchung gemacht. Sie erhalten '
      + 'höchstens eine solche Nachricht am Tag.',
  },
  manage: {
    title: 'Ihre Buchung',
    notFoundTitle: 'Buchung nicht gefunden',
    notFound: 'Dieser Link führt zu keiner Buchung. Vielleicht wurde er falsch übernommen, oder die Buchung liegt schon in der '
      + 'Vergangenheit.',
    court: 'Platz',
    when: 'Wann',
    status: 'Status',
    confirmed: 'Bestätigt',
    cancelled: 'Storniert',
    cancelledNow: 'Ihre Buchung ist storniert. Der Platz ist wieder frei, und eine Stornobestätigung ist per E-Mail unterwegs.',
    cancelledEarlier: 'Diese Buchung wurde am {at} {by} storniert.',
    byGuest: 'auf Ihren Wunsch',
    byClub: 'vom Verein',
    reason: 'Grund',
    cancelUntil: 'Sie können sie bis {until} ändern oder stornieren.',
    changeLink: 'Datum oder Uhrzeit ändern',
    changeTitle: 'Datum oder Uhrzeit ändern',
    changeIntro: 'Freie Zeiten auf {court}, so lang wie Ihre Buchung:',
    dateLabel: 'Datum',
    showTimes: 'Freie Zeiten zeigen',
    noTimes: 'An diesem Tag ist keine Zeit frei. Wählen Sie ein anderes Datum.',
    timeLegend: 'Neue Zeit',
    moveButton: 'Buchung verlegen',
    movedNow: 'Ihre Buchung ist verlegt. Eine E-Mail mit der Kalenderänderung ist unterwegs.',
    back: 'Zurück zu Ihrer Buchung',
    taken: 'Diese Zeit wurde inzwischen gebucht. Wählen Sie eine andere.',
    invalidTime: 'Diese Zeit kann nicht gebucht werden. Wählen Sie eine der freien Zeiten.',
    tooLateChange: 'Diese Buchung kann hier nicht mehr geändert werden: Änderungen waren bis {until} möglich. Bitte wenden Sie '
      + 'sich an den Verein.',
    cancelButton: 'Diese Buchung stornieren',
    cannotUndo: 'Eine Stornierung lässt sich nicht rückgängig machen; Sie müssten neu buchen.',
    tooLate: 'Diese Buchung kann hier nicht mehr storniert werden: Eine Stornierung war bis {until} möglich. Bitte wenden Sie '
      + 'sich an den Verein.',
    bookAgain: 'Einen Platz bei {club} buchen',
    addToCalendar: 'In meinen Kalender eintragen',
    languages: 'Sprache',
    privacy: 'Datenschutzhinweise des Vereins',
  },
  bookingPage: {
    title: 'Platz buchen',
    noScript: 'Zum Buchen braucht diese Seite JavaScript, das in diesem Browser ausgeschaltet ist. Schalten Sie es ein und laden Sie '
      + 'die Seite neu, oder buchen Sie direkt bei {club}.',
    noScriptSite: 'Zum Buchen braucht diese Seite JavaScript, das in diesem Browser ausgeschaltet ist. Schalten Sie es ein und laden '
      + 'Sie die Seite neu, oder buchen Sie direkt bei {club}:',
    unknownClub: 'Unter dieser Adresse gibt es keinen Verein. Prüfen Sie den Link oder fragen Sie den Verein nach seiner '
      + 'Buchungsseite.',
  },
}
