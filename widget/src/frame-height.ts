/**
 * On the hosted booking page (/book/{club}) inside an iframe: the parent page hears the page's
 * height whenever it changes (`{ type: 'club-booking:height', height }`), so that it can size the
 * iframe and the iframe never scrolls inside. The height says nothing private: any origin may hear it.
 * It starts when the widget's script loads.
 */
if (window.parent !== window && document.documentElement.hasAttribute('data-club-booking-page')) {
  const report = (): void => {
    window.parent.postMessage({ type: 'club-booking:height', height: Math.ceil(document.body.getBoundingClientRect().height) }, '*')
  }
  const observe = (): void => {
    new ResizeObserver(report).observe(document.body)
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', observe)
  else observe()
}
