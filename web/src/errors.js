/**
 * Every failed import rejects with an ImportError: a stable `code` (see
 * index.d.ts), a message for people, and where in the input it happened.
 */
export class ImportError extends Error {
  /**
   * @param {{code: string, message: string, path?: string, offset?: number|null,
   *          line?: number|null}} details
   */
  constructor({ code, message, path = '', offset = null, line = null }) {
    super(message);
    this.name = 'ImportError';
    this.code = code;
    this.path = path;
    this.offset = offset;
    this.line = line;
  }

  /**
   * For LIMIT_EXCEEDED, the options.limits name of the limit reached
   * ("maxXmlDepth"): the core's messages end with "(limits.NAME)". Else null.
   */
  get limit() {
    if (this.code !== 'LIMIT_EXCEEDED') return null;
    return /\(limits\.(\w+)\)/.exec(this.message)?.[1] ?? null;
  }

  /** "path, line 12, byte 345", or "" when the error has no location. */
  get location() {
    const parts = [];
    if (this.path) parts.push(this.path);
    if (this.line !== null) parts.push(`line ${this.line}`);
    if (this.offset !== null) parts.push(`byte ${this.offset}`);
    return parts.join(', ');
  }
}

/** The error an aborted import rejects with: the signal's reason, if any. */
export function abortError(signal) {
  if (signal.reason !== undefined) return signal.reason;
  return new DOMException('The import was aborted', 'AbortError');
}
