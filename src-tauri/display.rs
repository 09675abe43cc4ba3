//! Whether this process can open a window or a tray here: both programs ask before GTK starts.

/// Why no tray or window can open here, if none can: checked before GTK initialises, which
/// panics without a display (over SSH, on a server).
pub fn problem() -> Option<String> {
    if let Some(missing) = redline_core::platform::display::missing() {
        return Some(missing.into());
    }
    #[cfg(target_os = "linux")]
    if gtk::init().is_err() {
        return Some("cannot open the display".into());
    }
    None
}
