/**
 * CSV for a spreadsheet (RFC 4180): UTF-8 with a byte order mark, so that spreadsheets read the
 * accents; a cell that a spreadsheet would run as a formula (=, +, -, @, tab, CR first) is kept as
 * text with an apostrophe.
 */
export function csvDocument<C extends string>(columns: readonly C[],
  rows: readonly Readonly<Record<C, string | null>>[]): string {
  const cell = (value: string | null) => {
    const text = value ?? ''
    const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text
    return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe
  }
  const lines = [columns.join(','), ...rows.map((row) => columns.map((column) => cell(row[column])).join(','))]
  return `\uFEFF${lines.join('\r\n')}\r\n`
}
