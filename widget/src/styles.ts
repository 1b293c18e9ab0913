/** The widget's look: CSS custom properties and ::part() adjust it; nothing else of the page reaches in. */

/** The style sheet's text (a tag, so that the build finds it and drops its comments and spaces: vite.config.ts). */
const css = (text: TemplateStringsArray): string => text.join('')

export const styles = css`
  :host {
    display: block !important;
    --_accent: var(--club-booking-accent, #0b5cad);
    --_ink: var(--club-booking-ink, #1b1f24);
    --_paper: var(--club-booking-background, #ffffff);
    --_free: var(--club-booking-free, #e7f5ea);
    --_taken: var(--club-booking-taken, #eceef1);
    --_radius: var(--club-booking-radius, 0.375rem);
  }
  * { box-sizing: border-box; }
  /* On the section, not the host: a page's rules (even * { all: unset }) reach the host element, never inside it. */
  section { display: block; padding: 0.5rem; font-family: var(--club-booking-font, system-ui, sans-serif); color: var(--_ink);
    background: var(--_paper); line-height: 1.4; font-size: 1rem; text-align: start; }
  .top { display: flex; align-items: center; justify-content: space-between; gap: 0.5rem; margin: 0.25rem 0 0.5rem; }
  .day { font-weight: 600; min-height: 1.4em; }
  .language { width: auto; max-width: 9rem; min-height: 2.75rem; padding: 0 0.5rem; font-size: 0.9rem; }
  /* The date strip: the bookable days in a row that scrolls sideways, the day shown in the accent colour. */
  .strip { display: flex; gap: 0.375rem; overflow-x: auto; padding: 0.25rem 0.125rem 0.5rem; }
  .strip button { flex: 0 0 auto; display: flex; flex-direction: column; align-items: center; min-width: 3.75rem; padding: 0.25rem;
    background: var(--_free); color: #14532d; border-color: transparent; line-height: 1.2; }
  .strip strong { font-size: 1.1rem; }
  .strip small { font-size: 0.75rem; }
  .strip .full { background: var(--_taken); color: #3b424c; }
  .strip [aria-checked="true"] { background: var(--_accent); color: #fff; }
  .next { margin: 0.25rem 0 0.75rem; }
  .launcher { font-weight: 600; }
  :host([mode="floating"]) .launcher { position: fixed; right: 1rem; bottom: 1rem; z-index: 2147483000; border-radius: 2rem;
    padding: 0.5rem 1.25rem; box-shadow: 0 4px 14px #0005; }
  dialog { padding: 0; border: 0; border-radius: var(--_radius); width: min(46rem, calc(100vw - 2rem)); color: var(--_ink);
    background: var(--_paper); }
  dialog::backdrop { background: #0009; }
  /* The close button stays at the dialog's top while the dialog scrolls. */
  dialog { overflow: auto; }
  .bar { position: sticky; top: 0; z-index: 4; display: flex; justify-content: flex-end; padding: 0.5rem 0.5rem 0;
    pointer-events: none; }
  .close { font-size: 1.4rem; line-height: 1; pointer-events: auto; }
  /* On a phone the dialog is the whole screen. */
  @media (max-width: 40rem) { dialog { width: 100vw; max-width: 100vw; height: 100dvh; max-height: 100dvh; margin: 0; border-radius: 0; } }
  .date { display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem; margin-top: 0.75rem; }
  .date input { width: auto; flex: 1 1 9rem; max-width: 12rem; }
  button, input, textarea, select { font: inherit; color: inherit; }
  button { min-height: 2.75rem; min-width: 2.75rem; border-radius: var(--_radius); border: 1px solid var(--_accent); cursor: pointer;
    padding: 0.25rem 0.75rem; }
  button.primary { background: var(--_accent); color: #fff; }
  button.secondary { background: var(--_paper); color: var(--_accent); }
  button:disabled, button[aria-disabled="true"] { cursor: not-allowed; }
  button:disabled { opacity: 0.7; }
  /* Black on a white band: at least 3:1 against whatever lies around it (white, the free and taken tints, the accent). */
  button:focus-visible, input:focus-visible, textarea:focus-visible, select:focus-visible, a:focus-visible,
  [tabindex="-1"]:focus-visible { outline: 3px solid #000; outline-offset: 2px; box-shadow: 0 0 0 2px #fff; }
  input, textarea, select { min-height: 2.75rem; padding: 0.5rem; border: 1px solid #6b7480; border-radius: var(--_radius);
    background: #fff; width: 100%; max-width: 28rem; }
  [aria-invalid="true"] { border: 2px solid #a4161a; }
  .field-error { color: #a4161a; margin: -0.25rem 0 0; font-size: 0.9rem; }
  a { color: var(--_accent); display: inline-flex; align-items: center; min-height: 2.75rem; }
  .links { display: flex; flex-wrap: wrap; gap: 0 1.25rem; list-style: none; padding: 0; margin: 0 0 0.5rem; }
  .label { font-weight: 600; margin: 0.5rem 0 0; }
  .earlier { margin: 0 0 0.5rem; }
  .grid-wrap { position: relative; }
  /* The grid scrolls inside its frame: the court names stay on top, the times at the left. */
  .scroll { overflow: auto; max-height: min(70vh, 36rem); }
  .more { display: none; position: absolute; top: 0; right: 0; bottom: 0; width: 1.5rem; pointer-events: none;
    background: linear-gradient(to left, #1b1f2440, transparent); }
  .grid-wrap[data-more] .more { display: block; }
  /* The times stay in sight while the courts scroll sideways. */
  tbody th, thead th { position: sticky; left: 0; z-index: 1; background: var(--_paper); }
  thead th { top: 0; left: auto; z-index: 2; }
  thead th:first-child { left: 0; z-index: 3; }
  table { border-collapse: collapse; width: 100%; }
  th, td { padding: 0.125rem; text-align: center; }
  thead th { font-size: 0.9rem; }
  tbody th { font-weight: 600; font-size: 0.9rem; white-space: nowrap; padding-right: 0.5rem; }
  /* Wide enough for the longest status word of the six languages; longer statuses wrap between words. */
  td { min-width: 6.75rem; }
  .slot { width: 100%; border-color: transparent; font-size: 0.85rem; white-space: normal; overflow-wrap: normal; line-height: 1.2; }
  .slot.available { background: var(--_free); color: #14532d; }
  .slot.unavailable { background: var(--_taken); color: #3b424c; }
  .slot[aria-pressed="true"] { background: var(--_accent); color: #fff; border-color: var(--_accent); }
  .chosen, form { display: flex; flex-direction: column; gap: 0.5rem; align-items: flex-start; margin-top: 0.75rem; }
  /* The selection and its next step stay in sight at the bottom of the screen while the grid scrolls. */
  .chosen { position: sticky; bottom: 0; z-index: 2; background: var(--_paper); padding: 0.5rem; margin: 0.75rem -0.5rem 0;
    border-top: 1px solid #c4c8cf; box-shadow: 0 -2px 6px #0002; }
  .chosen p { margin: 0; }
  .bar-notice { background: #e7f5ea; padding: 0.375rem 0.5rem; border-radius: var(--_radius); }
  td { height: 1px; }
  td > .slot { height: 100%; }
  .row { display: flex; flex-wrap: wrap; gap: 0.5rem; }
  .hint { color: #4a5360; font-size: 0.9rem; margin: 0.25rem 0; }
  .notice:empty { display: none; }
  .notice { padding: 0.5rem 0.75rem; border-radius: var(--_radius); margin: 0.5rem 0; }
  .notice.error { background: #fde8e8; border: 1px solid #a4161a; color: #7a1114; }
  .done h3 { margin: 0.5rem 0; font-size: 1.1rem; }
  .sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
`
