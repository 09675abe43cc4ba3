// The review window's only door to the Tauri backend: typed commands and events.
import { invoke } from '@tauri-apps/api/core';
import { listen, type UnlistenFn } from '@tauri-apps/api/event';
import type { Fault, Resolved, ReviewDetail, Selection, Settings, Welcome } from './types';

/** Payloads of the events the backend emits to this window. */
export interface BackendEvents {
  'review-added': ReviewDetail;
  'review-updated': ReviewDetail;
  'review-resolved': Resolved;
  'close-requested': null;
}

function isFault(value: unknown): value is Fault {
  return typeof value === 'object' && value !== null
    && typeof (value as Fault).code === 'string'
    && typeof (value as Fault).message === 'string';
}

/**
 * A command's Err arrives as whatever serde made of it; a broken bridge rejects with a string or an
 * Error. Callers get one shape so every failure can be shown to the user the same way.
 */
export function toFault(err: unknown): Fault {
  if (isFault(err)) return err;
  if (err instanceof Error) return { code: 'internal', message: err.message };
  if (typeof err === 'string') return { code: 'internal', message: err };
  return { code: 'internal', message: JSON.stringify(err) ?? String(err) };
}

async function call<T>(cmd: string, args: Record<string, unknown> = {}): Promise<T> {
  try {
    return await invoke<T>(cmd, args);
  } catch (err) {
    throw toFault(err);
  }
}

export const reviewsList = () => call<ReviewDetail[]>('reviews_list');
/** `revision` is the proposal the edits were made against: a newer one refuses them (`superseded`). */
export const reviewUpdate = (id: number, revision: number, content: string) =>
  call<void>('review_update', { id, revision, content });
/** `content` is the edited text; `null` accepts the proposal as it is (a read-only one). */
export const reviewAccept = (id: number, revision: number, content: string | null) =>
  call<void>('review_accept', { id, revision, content });
/** Opens the file at `line` (1-based, in the file on disk) in the user's $VISUAL/$EDITOR. */
export const reviewOpenInEditor = (id: number, line: number) => call<void>('review_open_in_editor', { id, line });
/** `reason`: why, for whoever asked; absent, a plain rejection. */
export const reviewReject = (id: number, reason?: string) =>
  call<void>('review_reject', reason === undefined ? { id } : { id, reason });
export const reviewDiskChanged = (id: number) => call<boolean>('review_disk_changed', { id });
export const reviewMention = (id: number, lineStart: number, lineEnd: number) =>
  call<void>('review_mention', { id, lineStart, lineEnd });
export const reviewSelect = (id: number, selection: Selection) => call<void>('review_select', { id, selection });
export const reviewShown = (id: number) => call<void>('review_shown', { id });
export const settingsGet = () => call<Settings>('settings_get');
export const settingsSet = (settings: Settings) => call<void>('settings_set', { settings });
export const windowHide = () => call<void>('window_hide');
export const windowCloseAnswer = (rejectPending: boolean) =>
  call<void>('window_close_answer', { rejectPending });

export const welcome = () => call<Welcome>('welcome');
export const workspaceAdd = () => call<string | null>('workspace_add');

export function on<K extends keyof BackendEvents>(
  name: K,
  handler: (payload: BackendEvents[K]) => void,
): Promise<UnlistenFn> {
  return listen<BackendEvents[K]>(name, (event) => handler(event.payload));
}
