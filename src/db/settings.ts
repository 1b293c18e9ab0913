/** Which database the service opens: SQLite in a file (or `:memory:`), or PostgreSQL at a URL (DATABASE_URL). */
export type DatabaseSettings
  = | { readonly kind: 'sqlite', readonly file: string }
    | { readonly kind: 'postgres', readonly url: string }
