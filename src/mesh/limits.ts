/** The mesh's documented caps (README "Agent mesh"); a call past one fails with a message naming it. */

/** Bytes of UTF-8 in one message body (or a work item's body). Longer content belongs in a file or a memory. */
export const MAX_MESSAGE_BYTES = 16 * 1024;
/** Unacknowledged messages one name may hold; a direct send past it fails, a fan-out skips that inbox. */
export const INBOX_CAP = 1000;
/** A name's lease: renewed every third of it while the server runs; lapses this long after a crash. */
export const LEASE_MS = 15_000;
/** Longest `wait`. */
export const MAX_WAIT_MS = 600_000;
/** Status detail and work titles, in characters. */
export const MAX_DETAIL_CHARS = 200;
/** Names and channels: a letter or digit, then letters, digits, '.', '_', '-'. */
export const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
