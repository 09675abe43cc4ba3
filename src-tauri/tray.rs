//! The tray icon and its menu, rebuilt from the core's menu model whenever the state changes;
//! clicks go back to the core as actions (`action.rs`).

use crate::action;
use crate::autostart;
use crate::main_thread::{Event, MainThread};
use redline_core::review::ReviewEvent;
use redline_core::runtime::instance::Instance;
use redline_core::surfaces::menu::{self, Action, Item};
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
use tokio::sync::broadcast::error::RecvError;
use tray_icon::menu::{
    CheckMenuItem, IsMenuItem, Menu, MenuEvent, MenuItem, PredefinedMenuItem, Submenu,
};
use tray_icon::{Icon, TrayIcon, TrayIconBuilder, TrayIconEvent};

/// The icon in the tray; lives on the main thread.
pub struct Tray {
    icon: TrayIcon,
    pending: bool,
}

impl Tray {
    /// Puts the icon in the tray with its first menu. Main thread, with its event loop running
    /// (macOS adds status items only then).
    pub fn new(items: &[Item], pending: bool) -> Result<Tray, String> {
        let (image, template) = icon(pending)?;
        let icon = TrayIconBuilder::new()
            .with_id("redline")
            .with_icon(image)
            .with_icon_as_template(template)
            .with_tooltip("Redline")
            .with_menu(Box::new(build(items).map_err(|e| e.to_string())?))
            .with_menu_on_left_click(true)
            .build()
            .map_err(|e| e.to_string())?;
        Ok(Tray { icon, pending })
    }

    /// Shows a new menu, and the icon's badge if that changed.
    pub fn update(&mut self, items: &[Item], pending: bool) {
        match build(items) {
            Ok(m) => self.icon.set_menu(Some(Box::new(m))),
            Err(e) => tracing::warn!("tray menu: {e}"),
        }
        if pending == self.pending {
            return;
        }
        match icon(pending) {
            Ok((image, template)) => {
                // Not `set_icon_with_as_template`: that one does nothing but on macOS.
                if let Err(e) = self.icon.set_icon(Some(image)) {
                    tracing::warn!("tray icon: {e}");
                }
                self.icon.set_icon_as_template(template);
                self.pending = pending;
            }
            Err(e) => tracing::warn!("tray icon: {e}"),
        }
    }
}

/// The glyph the core picks for this OS; the panel is assumed dark unless
/// `REDLINE_TRAY_THEME=light` says otherwise.
fn icon(pending: bool) -> Result<(Icon, bool), String> {
    let light = std::env::var("REDLINE_TRAY_THEME").as_deref() == Ok("light");
    let (name, template) = menu::tray_icon(pending, light);
    let (rgba, width, height) = rgba(png_bytes(name)).map_err(|e| format!("{name}: {e}"))?;
    let icon = Icon::from_rgba(rgba, width, height).map_err(|e| format!("{name}: {e}"))?;
    Ok((icon, template))
}

fn png_bytes(name: &str) -> &'static [u8] {
    match name {
        "tray-template@2x.png" => include_bytes!("../icons/tray-template@2x.png"),
        "tray-pending-template@2x.png" => include_bytes!("../icons/tray-pending-template@2x.png"),
        "tray-light@2x.png" => include_bytes!("../icons/tray-light@2x.png"),
        "tray-pending-light@2x.png" => include_bytes!("../icons/tray-pending-light@2x.png"),
        "tray-pending-dark@2x.png" => include_bytes!("../icons/tray-pending-dark@2x.png"),
        _ => include_bytes!("../icons/tray-dark@2x.png"),
    }
}

/// A PNG as the RGBA pixels the tray takes (the icons are 8-bit RGBA; anything else is
/// normalised to it).
fn rgba(png: &[u8]) -> Result<(Vec<u8>, u32, u32), png::DecodingError> {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(png));
    decoder.set_transformations(
        png::Transformations::normalize_to_color8() | png::Transformations::ALPHA,
    );
    let mut reader = decoder.read_info()?;
    let mut buf = vec![0; reader.output_buffer_size().unwrap_or(0)];
    let info = reader.next_frame(&mut buf)?;
    buf.truncate(info.buffer_size());
    let rgba = match info.color_type {
        png::ColorType::Rgba => buf,
        // Grey with alpha, after the transformations above: spread to RGBA.
        _ => buf
            .chunks_exact(2)
            .flat_map(|ga| [ga[0], ga[0], ga[0], ga[1]])
            .collect(),
    };
    Ok((rgba, info.width, info.height))
}

fn build(items: &[Item]) -> tray_icon::menu::Result<Menu> {
    let built = entries(items)?;
    let refs: Vec<&dyn IsMenuItem> = built.iter().map(|b| b.as_ref()).collect();
    Menu::with_items(&refs)
}

fn entries(items: &[Item]) -> tray_icon::menu::Result<Vec<Box<dyn IsMenuItem>>> {
    let mut out: Vec<Box<dyn IsMenuItem>> = Vec::new();
    for item in items {
        match item {
            Item::Action { label, action } => {
                out.push(Box::new(MenuItem::with_id(action.id(), label, true, None)))
            }
            Item::Check {
                label,
                checked,
                action,
            } => out.push(Box::new(CheckMenuItem::with_id(
                action.id(),
                label,
                true,
                *checked,
                None,
            ))),
            // Disabled: its id is never clicked, so muda's own is fine.
            Item::Note(label) => out.push(Box::new(MenuItem::new(label, false, None))),
            Item::Separator => out.push(Box::new(PredefinedMenuItem::separator())),
            Item::Submenu { label, items } => {
                let children = entries(items)?;
                let refs: Vec<&dyn IsMenuItem> = children.iter().map(|b| b.as_ref()).collect();
                out.push(Box::new(Submenu::with_items(label, true, &refs)?));
            }
        }
    }
    Ok(out)
}

/// The menu model for the current state.
pub async fn model(core: &Instance) -> (Vec<Item>, bool) {
    let status = core.status().await;
    let mut hints = HashMap::new();
    for w in &status.workspaces {
        if let Ok(t) = core.workspaces().token(&w.path).await {
            hints.insert(w.path.clone(), menu::token_hint(&t));
        }
    }
    let pending = core.reviews().list();
    let mut turns = Vec::new();
    for w in status.workspaces.iter().filter(|w| w.port.is_some()) {
        // A store that cannot be read lists no turns; `redline turns list` says why.
        let list = core
            .turns_recent(&w.path, menu::RECENT_PER_WORKSPACE)
            .await
            .unwrap_or_default();
        turns.push((w.path.clone(), list));
    }
    // The status says why the review window cannot start, if it cannot.
    let items = menu::tray_with_turns(
        &status,
        &pending,
        Some(&turns),
        autostart::is_enabled(),
        |p: &Path| hints.get(p).cloned(),
    );
    (items, !pending.is_empty())
}

/// Sends the menu for the current state to the main thread.
pub async fn refresh(core: &Instance, main: &MainThread) {
    let (items, pending) = model(core).await;
    main.send(Event::Menu { items, pending });
}

/// Keeps the tray current until the instance quits: its first menu now, a new one when the
/// pending reviews, the workspaces, the remotes or the window's problem change and after each click, which it
/// acts on.
pub fn feed(core: Arc<Instance>, main: MainThread) {
    // Clicks come on the main thread; acting may wait on the core or a dialog: a task each.
    let (clicks, mut clicked) = tokio::sync::mpsc::unbounded_channel();
    MenuEvent::set_event_handler(Some(move |e: MenuEvent| {
        let _ = clicks.send(e.id.0);
    }));
    // Icon clicks only open the menu, which the OS does; unread, they would pile up in
    // tray-icon's channel all day (one per mouse move over the icon on Windows and macOS).
    TrayIconEvent::set_event_handler(Some(|_: TrayIconEvent| {}));

    let (c, m) = (core.clone(), main.clone());
    tokio::spawn(async move {
        refresh(&c, &m).await;
        let mut reviews = c.reviews().queue().subscribe();
        let mut problem = c.windows().problem();
        // A workspace changed from a command (`redline workspace add`) shows in the menu too.
        let mut workspaces = c.workspaces().changes();
        // A remote's link coming up or failing too.
        let mut remotes = c.remotes().changes();
        loop {
            tokio::select! {
                _ = c.quit_requested() => return,
                event = reviews.recv() => match event {
                    // Edits pushed while typing: the count and the menu stay the same.
                    Ok(ReviewEvent::Updated(_)) => continue,
                    Ok(_) | Err(RecvError::Lagged(_)) => {}
                    Err(RecvError::Closed) => return,
                },
                changed = problem.changed() => {
                    if changed.is_err() {
                        return;
                    }
                }
                changed = workspaces.changed() => {
                    if changed.is_err() {
                        return;
                    }
                }
                changed = remotes.changed() => {
                    if changed.is_err() {
                        return;
                    }
                }
            }
            refresh(&c, &m).await;
        }
    });

    tokio::spawn(async move {
        while let Some(id) = clicked.recv().await {
            let Some(action) = Action::from_id(&id) else {
                continue;
            };
            let (core, main) = (core.clone(), main.clone());
            tokio::spawn(async move {
                if let Err(e) = action::act(&core, &main, action).await {
                    action::error(&main, e.to_string()).await;
                }
                refresh(&core, &main).await;
            });
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tray_icon_decodes_to_rgba_pixels() {
        for (pending, light) in [(false, false), (false, true), (true, false), (true, true)] {
            let (name, _) = menu::tray_icon(pending, light);
            let (pixels, w, h) = rgba(png_bytes(name)).expect(name);
            assert_eq!((w, h), (64, 64), "{name}");
            assert_eq!(pixels.len(), 64 * 64 * 4, "{name}");
            assert!(pixels.chunks_exact(4).any(|p| p[3] > 0), "{name} is blank");
        }
    }
}
