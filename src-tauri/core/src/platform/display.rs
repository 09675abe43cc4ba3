//! The graphical session a desktop program finds in its environment, and the settings GTK and
//! WebKit must see before any thread starts (both programs, `redline` and `redline-window`).

/// Why no window can open here, judged from the environment alone; `None` when a display is
/// named (it may still fail to open: GTK's init says).
pub fn missing() -> Option<&'static str> {
    let set = |k: &str| std::env::var_os(k).is_some_and(|v| !v.is_empty());
    if cfg!(target_os = "linux") && !set("DISPLAY") && !set("WAYLAND_DISPLAY") {
        return Some("no display (neither DISPLAY nor WAYLAND_DISPLAY is set)");
    }
    None
}

/// Turns off what a diff view does not need, unless the user set it: WebKit's accelerated
/// compositing (it keeps GL buffers in the web process, software GL without a GPU: measured in
/// bench/window, the web process drops from ~300 to ~210 MB RSS), and GTK's GL (without
/// compositing nothing draws with GL, yet GTK loads Mesa and LLVM to pick visuals when it opens
/// a display: 25 MiB PSS held all day for nothing, idle 87 -> 63 MiB). Set in the tray process,
/// they are inherited by the window process.
///
/// # Safety
/// Sets environment variables: call first thing in `main`, before any other thread exists.
pub unsafe fn settle() {
    if !cfg!(target_os = "linux") {
        return;
    }
    for (key, value) in [
        ("WEBKIT_DISABLE_COMPOSITING_MODE", "1"),
        ("GDK_GL", "disable"),
    ] {
        if std::env::var_os(key).is_none() {
            // SAFETY: the caller runs this before any other thread exists.
            unsafe { std::env::set_var(key, value) };
        }
    }
}
