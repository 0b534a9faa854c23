import { META_SUBSCRIPTION_ID, type JsonRpcId, type JsonRpcMessage } from './protocol.ts';

/**
 * Resource-update subscriptions for both protocol eras. Modern (2026-07-28) clients open a
 * `subscriptions/listen` request that stays open: an acknowledgement first, then
 * `notifications/resources/updated` for each matching URI whenever the graph hot-reloads, each
 * tagged with the listen request's id. Legacy HTTP sessions `resources/subscribe` to URIs and
 * receive the same updates on their GET stream. Transport-independent: senders are callbacks.
 */

/** What a client may opt in to on `subscriptions/listen` (SDK v2 SubscriptionFilter). */
export interface SubscriptionFilter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
}

interface Listener {
  id: JsonRpcId;
  uris: string[];
  toolsListChanged: boolean;
  send(message: JsonRpcMessage): void;
}

/** A URI filter matches itself exactly, or every URI under it when it ends with `*`. */
export function uriMatches(filter: string, uri: string): boolean {
  return filter.endsWith('*') ? uri.startsWith(filter.slice(0, -1)) : filter === uri;
}

export class SubscriptionHub {
  private readonly listeners = new Set<Listener>();
  private readonly legacy = new Map<object, { uris: Set<string>; send(message: JsonRpcMessage): void }>();

  /**
   * Validate a listen request's params and start a listener. Returns the acknowledgement to send
   * first and a function that ends the listener; throws TypeError on malformed params.
   */
  listen(id: JsonRpcId, params: Record<string, unknown>, send: (message: JsonRpcMessage) => void): { ack: JsonRpcMessage; stop: () => void } {
    const raw = params.notifications;
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new TypeError('subscriptions/listen needs params.notifications (an object)');
    const n = raw as Record<string, unknown>;
    const uris = n.resourceSubscriptions ?? [];
    if (!Array.isArray(uris) || uris.some((u) => typeof u !== 'string')) throw new TypeError('notifications.resourceSubscriptions must be an array of URI strings');
    const listener: Listener = { id, uris: uris as string[], toolsListChanged: n.toolsListChanged === true, send };
    this.listeners.add(listener);
    // Agree to what we can honour: tool list changes and resource updates (prompts and the resource list are fixed).
    const agreed: SubscriptionFilter = { resourceSubscriptions: listener.uris };
    if (listener.toolsListChanged) agreed.toolsListChanged = true;
    return {
      ack: { jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { notifications: agreed, _meta: { [META_SUBSCRIPTION_ID]: id } } },
      stop: () => this.listeners.delete(listener),
    };
  }

  /** Legacy `resources/subscribe` for a session (HTTP); updates go to `send` (its GET stream). */
  subscribe(session: object, uri: string, send: (message: JsonRpcMessage) => void): void {
    let entry = this.legacy.get(session);
    if (!entry) this.legacy.set(session, (entry = { uris: new Set(), send }));
    entry.send = send;
    entry.uris.add(uri);
  }

  unsubscribe(session: object, uri?: string): void {
    const entry = this.legacy.get(session);
    if (!entry) return;
    if (uri === undefined) this.legacy.delete(session);
    else entry.uris.delete(uri);
  }

  /**
   * The graph changed, so every `synaptic://` resource may read differently now: each listener gets
   * one update per subscribed URI (a `prefix*` filter expands over `knownUris`).
   */
  graphChanged(knownUris: readonly string[]): void {
    const expand = (filters: Iterable<string>): string[] => {
      const out = new Set<string>();
      for (const f of filters) {
        if (f.endsWith('*')) for (const uri of knownUris) if (uriMatches(f, uri)) out.add(uri);
        if (!f.endsWith('*') && f.startsWith('synaptic://')) out.add(f);
      }
      return [...out];
    };
    for (const l of this.listeners) {
      for (const uri of expand(l.uris)) {
        safeSend(l.send, { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri, _meta: { [META_SUBSCRIPTION_ID]: l.id } } });
      }
    }
    for (const entry of this.legacy.values()) {
      for (const uri of expand(entry.uris)) safeSend(entry.send, { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri } });
    }
  }

  /** The tool list changed (e.g. the skill tools switched on). */
  toolsChanged(): void {
    for (const l of this.listeners) {
      if (l.toolsListChanged) safeSend(l.send, { jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: { _meta: { [META_SUBSCRIPTION_ID]: l.id } } });
    }
  }
}

function safeSend(send: (message: JsonRpcMessage) => void, message: JsonRpcMessage): void {
  try {
    send(message);
  } catch {
    // A closed stream: its transport removes the listener.
  }
}
