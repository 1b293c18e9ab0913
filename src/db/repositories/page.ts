export interface PageRequest {
  readonly limit: number
  readonly offset: number
}

export interface Page<T> {
  readonly rows: readonly T[]
  readonly total: number
}
