// Generated from the action list by `redline_core::surfaces::action`; do not edit.
// Regenerate: UPDATE_BINDINGS=1 cargo test -p redline-core --test it bindings
import type { CommentsMessage, HistoryTurn, PastTurnFile, PastTurnFiles, PastTurnUndo, ReviewAccept, ReviewDetail, ReviewDiskChanged, ReviewMention, ReviewOpenInEditor, ReviewReject, ReviewSelect, ReviewShown, ReviewUpdate, Settings, SettingsSet, TurnAsked, TurnFileGet, TurnFileView, TurnFiles, TurnFilesGet, TurnUndo, TurnUndone, Welcome } from './bindings';
import { invokeAction } from './invoke';

/** The actions the page may ask, by wire name. */
export const PAGE_ACTIONS = [
  'reviewsList',
  'reviewUpdate',
  'reviewAccept',
  'reviewReject',
  'commentsMessage',
  'reviewOpenInEditor',
  'reviewDiskChanged',
  'reviewMention',
  'reviewSelect',
  'reviewShown',
  'turnFiles',
  'turnFile',
  'turnUndo',
  'turnsHistory',
  'pastTurnFiles',
  'pastTurnFile',
  'pastTurnUndo',
  'turnAsked',
  'settingsGet',
  'settingsSet',
  'welcome',
] as const;

export const reviewsList = () =>
  invokeAction<Array<ReviewDetail>>('reviewsList', {});

export const reviewUpdate = (id: ReviewUpdate['id'], revision: ReviewUpdate['revision'], content: ReviewUpdate['content']) =>
  invokeAction<void>('reviewUpdate', { id, revision, content });

export const reviewAccept = (id: ReviewAccept['id'], revision?: ReviewAccept['revision'], content?: ReviewAccept['content']) =>
  invokeAction<void>('reviewAccept', { id, revision, content });

export const reviewReject = (id: ReviewReject['id'], reason?: ReviewReject['reason'], comments?: ReviewReject['comments']) =>
  invokeAction<void>('reviewReject', { id, reason, comments });

export const commentsMessage = (comments: CommentsMessage['comments'], reason?: CommentsMessage['reason']) =>
  invokeAction<string | null>('commentsMessage', { comments, reason });

export const reviewOpenInEditor = (id: ReviewOpenInEditor['id'], line: ReviewOpenInEditor['line']) =>
  invokeAction<void>('reviewOpenInEditor', { id, line });

export const reviewDiskChanged = (id: ReviewDiskChanged['id']) =>
  invokeAction<boolean>('reviewDiskChanged', { id });

export const reviewMention = (id: ReviewMention['id'], lineStart: ReviewMention['lineStart'], lineEnd: ReviewMention['lineEnd']) =>
  invokeAction<void>('reviewMention', { id, lineStart, lineEnd });

export const reviewSelect = (id: ReviewSelect['id'], selection: ReviewSelect['selection']) =>
  invokeAction<void>('reviewSelect', { id, selection });

export const reviewShown = (id: ReviewShown['id']) =>
  invokeAction<void>('reviewShown', { id });

export const turnFiles = (id: TurnFilesGet['id']) =>
  invokeAction<TurnFiles>('turnFiles', { id });

export const turnFile = (id: TurnFileGet['id'], path: TurnFileGet['path']) =>
  invokeAction<TurnFileView>('turnFile', { id, path });

export const turnUndo = (id: TurnUndo['id'], picks: TurnUndo['picks']) =>
  invokeAction<TurnUndone>('turnUndo', { id, picks });

export const turnsHistory = () =>
  invokeAction<Array<HistoryTurn>>('turnsHistory', {});

export const pastTurnFiles = (workspace: PastTurnFiles['workspace'], turn: PastTurnFiles['turn']) =>
  invokeAction<TurnFiles>('pastTurnFiles', { workspace, turn });

export const pastTurnFile = (workspace: PastTurnFile['workspace'], turn: PastTurnFile['turn'], path: PastTurnFile['path']) =>
  invokeAction<TurnFileView>('pastTurnFile', { workspace, turn, path });

export const pastTurnUndo = (workspace: PastTurnUndo['workspace'], turn: PastTurnUndo['turn'], picks: PastTurnUndo['picks']) =>
  invokeAction<TurnUndone>('pastTurnUndo', { workspace, turn, picks });

export const turnAsked = () =>
  invokeAction<TurnAsked | null>('turnAsked', {});

export const settingsGet = () =>
  invokeAction<Settings>('settingsGet', {});

export const settingsSet = (settings: SettingsSet['settings']) =>
  invokeAction<void>('settingsSet', { settings });

export const welcome = () =>
  invokeAction<Welcome>('welcome', {});
