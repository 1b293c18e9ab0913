/** The dashboard's pages are paths under /dashboard/; links change the path without a reload. */
export const BASE = '/dashboard'

export const route = $state({ path: currentPath() })

function currentPath(): string {
  const path = window.location.pathname.startsWith(BASE) ? window.location.pathname.slice(BASE.length) : '/'
  return path === '' ? '/' : path
}

window.addEventListener('popstate', () => {
  route.path = currentPath()
})

export function navigate(path: string, options: { replace?: boolean } = {}): void {
  const url = `${BASE}${path}`
  if (options.replace === true) window.history.replaceState(null, '', url)
  else window.history.pushState(null, '', url)
  route.path = path
  window.scrollTo(0, 0)
}

/** A click on an in-app link: handled here unless the person asked for a new tab or window. */
export function follow(event: MouseEvent, path: string): void {
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
  event.preventDefault()
  navigate(path)
}
