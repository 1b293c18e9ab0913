export interface PageRequest {
  readonly limit: number
  readonly offset: number
}

export interface Page<T> {
  readonly rows: readonly T[]
  readonly total: number
}

/** A page as the JSON array of the API's items, and the total. */
export interface JsonPage {
  readonly json: string
  readonly total: number
}
