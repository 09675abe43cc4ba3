// How the page reaches the backend: every action through the one `call` command, errors in one shape.
import { invoke } from '@tauri-apps/api/core';
import type { Fault } from './types';

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

/** A window command by its Tauri name (the few the window process answers itself). */
export async function invokeCommand<T>(cmd: string, args: Record<string, unknown> = {}): Promise<T> {
  try {
    return await invoke<T>(cmd, args);
  } catch (err) {
    throw toFault(err);
  }
}

/**
 * An action by its wire name (ui/src/actions.ts, generated from the Rust list), its fields left
 * out where undefined, as JSON would.
 */
export function invokeAction<T>(action: string, request: Record<string, unknown>): Promise<T> {
  const fields = Object.fromEntries(Object.entries(request).filter(([, v]) => v !== undefined));
  return invokeCommand<T>('call', { action, request: fields });
}
