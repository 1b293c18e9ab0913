/**
 * On the hosted booking page (/book/{club}) inside an iframe: the parent page hears the page's
 * height whenever it changes (`{ type: 'club-booking:height', height }`), so that it can size the
 * iframe and the iframe never scrolls inside; and what the guest must see after a step — the chosen
 * time and Continue, a refusal, the next field — as the part of the page to scroll into its view
 * (`{ type: 'club-booking:show', top, bottom }`, in pixels from the frame's top). Neither says
 * anything private: any origin may hear them. It starts when the widget's script loads.
 */
const framed = window.parent !== window && document.documentElement.hasAttribute('data-club-booking-page')

if (framed) {
  const report = (): void => {
    window.parent.postMessage({ type: 'club-booking:height', height: Math.ceil(document.body.getBoundingClientRect().height) }, '*')
  }
  const observe = (): void => {
    new ResizeObserver(report).observe(document.body)
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', observe)
  else observe()
}

/**
 * Brings these elements into sight: in a frame the parent page is asked to scroll to them (the frame
 * itself never scrolls), elsewhere the page scrolls as little as it takes.
 */
export function reveal(elements: readonly (Element | null | undefined)[]): void {
  const shown = elements.filter((element) => element != null && element.getBoundingClientRect().height > 0)
  if (shown.length === 0) return
  if (!framed) {
    for (const element of shown) element?.scrollIntoView({ block: 'nearest' })
    return
  }
  // Measured once the parent has given the frame the height of the page (a sticky bar sits elsewhere in a frame too short),
  // or after half a second of frames without it.
  let frames = 0
  const post = (): void => {
    if (document.body.getBoundingClientRect().height > window.innerHeight + 1 && ++frames < 30) {
      requestAnimationFrame(post)
      return
    }
    const boxes = shown.map((element) => element?.getBoundingClientRect() ?? new DOMRect())
    window.parent.postMessage({ type: 'club-booking:show', top: Math.floor(Math.min(...boxes.map((box) => box.top)) + window.scrollY),
      bottom: Math.ceil(Math.max(...boxes.map((box) => box.bottom)) + window.scrollY) }, '*')
  }
  post()
}
