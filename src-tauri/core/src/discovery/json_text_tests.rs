//! json_text on real texts.
