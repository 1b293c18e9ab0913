/**
 * The widget's element base: lit-html used standalone (lit.dev/docs/libraries/standalone-templates),
 * the template rendered into the element's shadow root whenever a reactive property changes, at most
 * once a microtask, with the properties that changed (and their old values) handed to `willUpdate`
 * and `updated` as LitElement hands them. LitElement itself would be 2.3 kB of the widget's 15 kB
 * (docs/integration.md, "Size"); what the widget needs of it is this.
 */
import { render } from 'lit/html.js'
import type { TemplateResult } from 'lit/html.js'

/** The reactive properties that changed in an update, with the values they had before it. */
export type Changes = ReadonlyMap<string, unknown>

/** The style sheets, made once for every element of a kind (constructable where the browser has them: no policy blocks them). */
const sheets = new Map<string, CSSStyleSheet | undefined>()

function styleSheet(css: string): CSSStyleSheet | undefined {
  try {
    const sheet = new CSSStyleSheet()
    sheet.replaceSync(css)
    return sheet
  } catch {
    return undefined
  }
}

export abstract class ReactiveElement extends HTMLElement {
  /** The element's attributes, each read into the property it names (a removed one reads as ''). */
  static attributes: Readonly<Record<string, string>> = {}
  static styles = ''

  static get observedAttributes(): string[] {
    return Object.keys(this.attributes)
  }

  /** Makes the named properties reactive: setting one to another value renders the element again. */
  static reactive(names: readonly string[]): void {
    for (const name of names) {
      Object.defineProperty(this.prototype, name, {
        configurable: true,
        get(this: ReactiveElement) {
          return this.#values.get(name)
        },
        set(this: ReactiveElement, value: unknown) {
          const old = this.#values.get(name)
          if (this.#values.has(name) && Object.is(old, value)) return
          this.#values.set(name, value)
          this.requestUpdate(name, old)
        },
      })
    }
  }

  readonly renderRoot: ShadowRoot
  readonly #values = new Map<string, unknown>()
  #changes = new Map<string, unknown>()
  #pending: Promise<boolean> | null = null
  #connected = false

  constructor() {
    super()
    this.renderRoot = this.attachShadow({ mode: 'open' })
    const { styles } = this.constructor as typeof ReactiveElement
    if (!sheets.has(styles)) sheets.set(styles, styleSheet(styles))
    const sheet = sheets.get(styles)
    if (sheet === undefined) this.renderRoot.append(Object.assign(document.createElement('style'), { textContent: styles }))
    else this.renderRoot.adoptedStyleSheets = [sheet]
  }

  attributeChangedCallback(name: string, _old: string | null, value: string | null): void {
    const property = (this.constructor as typeof ReactiveElement).attributes[name]
    if (property !== undefined) (this as unknown as Record<string, unknown>)[property] = value ?? ''
  }

  connectedCallback(): void {
    this.#connected = true
    this.requestUpdate()
  }

  disconnectedCallback(): void {
    this.#connected = false
  }

  /** Renders again soon; `name` changed from `old`. Nothing renders before the element is in a document. */
  requestUpdate(name?: string, old?: unknown): void {
    if (name !== undefined && !this.#changes.has(name)) this.#changes.set(name, old)
    if (this.#pending === null && this.#connected) this.#pending = Promise.resolve().then(() => this.#update())
  }

  /** Settles once the update asked for has rendered. */
  get updateComplete(): Promise<boolean> {
    return this.#pending ?? Promise.resolve(true)
  }

  /** What changes in `willUpdate` renders with this update; what changes in `updated`, with the next. */
  #update(): boolean {
    const changes = this.#changes
    this.willUpdate(changes)
    this.#changes = new Map()
    this.#pending = null
    render(this.render(), this.renderRoot, { host: this })
    this.updated(changes)
    return true
  }

  /** Before rendering: what changes here renders with this update. */
  protected abstract willUpdate(changes: Changes): void

  /** After rendering: focus, scrolling; what changes here renders with the next update. */
  protected abstract updated(changes: Changes): void

  protected abstract render(): TemplateResult
}
