// The review window's only door to the Tauri backend: typed actions, commands and events.
import { invokeCommand } from './invoke';
import { listen, type UnlistenFn } from '@tauri-apps/api/event';
import type { Resolved, ReviewDetail } from './types';

/** Payloads of the events the backend emits to this window. */
export interface BackendEvents {
  'review-added': ReviewDetail;
  'review-updated': ReviewDetail;
  'review-resolved': Resolved;
  'close-requested': null;
  /** The core showed the window (a review, the tray, `redline` run again). */
  'shown': null;
  /** A workspace was added, removed or switched, from any surface. */
  'workspaces-changed': null;
}

export { toFault } from './invoke';
// The actions, one function each, generated from the Rust action list.
export * from './actions';

/** Hides the window unless a review arrived meanwhile. */
export const windowHide = () => invokeCommand<void>('window_hide');
/** Closing with reviews pending: reject them (`true`), or keep them pending. */
export const windowCloseAnswer = (rejectPending: boolean) =>
  invokeCommand<void>('window_close_answer', { rejectPending });
/**
 * Picks a folder in the window's own dialog and adds it; `null` if the user cancelled. The dialog
 * opens beside `near` (the newest workspace), else in the home folder.
 */
export const workspaceAdd = (near: string | null) => invokeCommand<string | null>('workspace_add', { near });

export function on<K extends keyof BackendEvents>(
  name: K,
  handler: (payload: BackendEvents[K]) => void,
): Promise<UnlistenFn> {
  return listen<BackendEvents[K]>(name, (event) => handler(event.payload));
}
