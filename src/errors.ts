// Error classes, each carrying the exit status the CLI turns it into.
// Exit codes follow ripgrep: 0 results, 1 none, 2 error; 3 is ours for
// "the store is missing or of another schema" so scripts can tell it apart.

export class HanzoError extends Error {
  readonly code: string;
  readonly exitCode: number;
  /** an extra line telling the user how to fix it */
  readonly hint?: string;
  constructor(code: string, message: string, exitCode: number, hint?: string) {
    super(message);
    this.name = 'HanzoError';
    this.code = code;
    this.exitCode = exitCode;
    this.hint = hint;
  }
}

/** Bad input from the user: a flag value, a query, a path. Exit 2. */
export class UsageError extends HanzoError {
  constructor(message: string, hint?: string) {
    super('usage', message, 2, hint);
  }
}

/** No store yet, or a store this version cannot read. Exit 3. */
export class StoreError extends HanzoError {
  constructor(code: 'no-store' | 'schema' | 'corrupt', message: string, hint?: string) {
    super(code, message, 3, hint);
  }
}

/** The embeddings / chat gateway failed in a way a person can act on. Exit 2. */
export class GatewayError extends HanzoError {
  readonly status?: number;
  constructor(message: string, hint?: string, status?: number) {
    super('gateway', message, 2, hint);
    this.status = status;
  }
}
