// The types the window shares with Rust: generated from the Rust types into bindings.ts.
export type {
  ClientInfo,
  ReviewDetail,
  Outcome,
  Resolved,
  Selection,
  PopupMode,
  Settings,
  Fault,
  FaultCode,
  DoctorLine,
  Welcome,
} from './bindings';
