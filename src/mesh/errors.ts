/** Errors a mesh caller may want to tell apart; messages read "Cannot <action>: <reason>" and say what to try. */

/** The name is held by another live session of the same project. */
export class NameTakenError extends Error {
  override name = 'NameTakenError';
}

/** No live agent holds the name a message was sent to. */
export class UnknownPeerError extends Error {
  override name = 'UnknownPeerError';
}

/** The recipient holds the documented maximum of unacknowledged messages. */
export class InboxFullError extends Error {
  override name = 'InboxFullError';
}

/** The call needs a registered name (mesh_register first). */
export class NotRegisteredError extends Error {
  override name = 'NotRegisteredError';
}
