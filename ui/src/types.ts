// Shared shapes of the backend contract; to be replaced by types generated from the Rust core.
export interface ClientInfo { name: string; version: string }
export interface ReviewDetail {
  id: number; workspace: string; relativePath: string; filePath: string; client: ClientInfo;
  newFile: boolean; original: string; proposal: string; current: string;
  added: number; removed: number; createdAt: number; updatedAt: number;
}
export type Outcome = 'accepted' | 'rejected' | 'closed' | 'dismissed';
export interface Resolved { id: number; outcome: Outcome }
export type PopupMode = 'focus' | 'noFocus' | 'trayOnly';
export interface Settings { popup: PopupMode; keepOpen: boolean }
export interface IpcError { code: string; message: string }
