//! The one list of CLIs seen two ways: those Redline serves an IDE protocol (`Served`), and those
//! whose pre-edit hook runs `redline hook` (`HookCli`, looked up by id). Neither declares a CLI:
//! both are made from `clients::ALL`.

use super::cli::{Cli, Ide};
use super::hook_site::HookSite;
use super::{ALL, HOOK_ORDER};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::ops::Deref;
use std::str::FromStr;

/// A CLI Redline serves an IDE protocol to, with that protocol's facts at hand: what discovery,
/// containers, `redline env`, doctor and "who asked" read.
#[derive(Debug, Clone, Copy)]
pub struct Served {
    pub cli: Cli,
    pub ide: Ide,
}

impl Deref for Served {
    type Target = Cli;
    fn deref(&self) -> &Cli {
        &self.cli
    }
}

impl Cli {
    /// This CLI with its IDE protocol's facts, if Redline serves it one.
    pub fn served(&self) -> Option<Served> {
        self.ide.map(|ide| Served { cli: *self, ide })
    }

    /// This CLI with its hook's facts, if it has a hook.
    pub fn hook_cli(&'static self) -> Option<HookCli> {
        Some(HookCli {
            cli: self,
            site: self.hook.as_ref()?,
        })
    }
}

/// Every CLI Redline serves an IDE protocol, in the order files are written and doctor reports
/// them.
pub fn served() -> impl Iterator<Item = Served> {
    ALL.iter().filter_map(Cli::served)
}

/// A CLI whose pre-edit hook runs `redline hook`: the `CLI` argument of `redline hook CLI` and
/// `redline hooks install CLI`, found by its id in `clients::ALL`.
#[derive(Debug, Clone, Copy)]
pub struct HookCli {
    pub cli: &'static Cli,
    site: &'static HookSite,
}

impl HookCli {
    /// Every CLI with a hook, in the order `redline hooks` and doctor report them.
    pub fn all() -> impl Iterator<Item = HookCli> {
        HOOK_ORDER.iter().filter_map(|c| c.hook_cli())
    }

    /// `cli` with its hook, for a `const`, where a CLI without one fails the build.
    pub const fn of_cli(cli: &'static Cli) -> HookCli {
        match &cli.hook {
            Some(site) => HookCli { cli, site },
            None => panic!("this CLI has no hook"),
        }
    }

    /// The CLI of this id, if it has a hook.
    pub fn of(id: &str) -> Option<HookCli> {
        ALL.iter().find(|c| c.id == id)?.hook_cli()
    }

    /// Where its hook goes, and what the entry says.
    pub fn site(self) -> &'static HookSite {
        self.site
    }

    pub fn id(self) -> &'static str {
        self.cli.id
    }

    /// The CLI's name as its users know it.
    pub fn name(self) -> &'static str {
        self.cli.name
    }
}

impl Deref for HookCli {
    type Target = HookSite;
    fn deref(&self) -> &HookSite {
        self.site
    }
}

impl PartialEq for HookCli {
    fn eq(&self, other: &Self) -> bool {
        self.id() == other.id()
    }
}

impl Eq for HookCli {}

impl fmt::Display for HookCli {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

impl FromStr for HookCli {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        HookCli::of(s).ok_or_else(|| {
            let known: Vec<_> = HookCli::all().map(HookCli::id).collect();
            format!("no hook for `{s}`; known: {}", known.join(", "))
        })
    }
}

/// On the wire, its id.
impl Serialize for HookCli {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.id())
    }
}

impl<'de> Deserialize<'de> for HookCli {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let id = String::deserialize(d)?;
        id.parse().map_err(serde::de::Error::custom)
    }
}
