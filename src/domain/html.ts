/** Text for HTML: every character that could open markup or end an attribute, as a numeric reference. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${String(char.charCodeAt(0))};`)
}
