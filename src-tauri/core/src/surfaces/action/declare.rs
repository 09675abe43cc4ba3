//! The `actions!` macro: from the one list of actions, each request struct, its `Act` impl,
//! the `Call` enum both channels carry, its dispatch to `Handle`, and the page's client list.

/// Expands its body only for an action the page may ask (`Page`).
macro_rules! page_only {
    (Page, $($body:tt)*) => { $($body)* };
    ($other:ident, $($body:tt)*) => {};
}

/// True for an action marked `bridge`: a desktop may ask it of a remote instance.
macro_rules! bridged {
    (bridge) => {
        true
    };
    () => {
        false
    };
}

/// `reach [bridge] "wireName" Struct { fields } -> Reply;`, once per action (see `list.rs`).
macro_rules! actions {
    ($(
        $(#[$doc:meta])*
        $reach:ident $($bridge:ident)? $wire:literal $name:ident {
            $( $(#[$fattr:meta])* $field:ident : $fty:ty ),* $(,)?
        } -> $reply:ty;
    )*) => {
        $(
            $crate::surfaces::action::declare::page_only! { $reach,
                $(#[$doc])*
                #[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize, ts_rs::TS)]
                #[serde(rename_all = "camelCase")]
                pub struct $name { $( $(#[$fattr])* pub $field: $fty, )* }
            }
            $crate::surfaces::action::declare::not_page! { $reach,
                $(#[$doc])*
                #[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
                #[serde(rename_all = "camelCase")]
                pub struct $name { $( $(#[$fattr])* pub $field: $fty, )* }
            }

            impl $crate::surfaces::action::Act for $name {
                const NAME: &'static str = $wire;
                const REACH: $crate::surfaces::action::Reach = $crate::surfaces::action::Reach::$reach;
                type Reply = $reply;
            }

            impl From<$name> for Call {
                fn from(request: $name) -> Call {
                    Call::$name(request)
                }
            }
        )*

        /// Any action, as either channel carries it: `{"cmd": NAME, ...its fields}`.
        #[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
        #[serde(tag = "cmd")]
        pub enum Call {
            $( #[serde(rename = $wire)] $name($name), )*
        }

        impl Call {
            /// Its wire name.
            pub fn name(&self) -> &'static str {
                match self {
                    $( Call::$name(_) => $wire, )*
                }
            }

            /// Who may ask it.
            pub fn reach(&self) -> $crate::surfaces::action::Reach {
                match self {
                    $( Call::$name(_) => $crate::surfaces::action::Reach::$reach, )*
                }
            }

            /// A desktop may ask it of a remote instance over a bridge (`runtime::remote`):
            /// the review's answers, its turn's files and the workspaces, never a setting, an
            /// editor or a container of the remote machine.
            pub fn bridged(&self) -> bool {
                match self {
                    $( Call::$name(_) => $crate::surfaces::action::declare::bridged!($($bridge)?), )*
                }
            }

            /// Carries it out on `handler`, the reply as the channel sends it.
            pub async fn handle<H>(self, handler: &H) -> $crate::error::Result<serde_json::Value>
            where
                H: Sync $( + $crate::surfaces::action::Handle<$name> )*,
            {
                match self {
                    $( Call::$name(request) => Ok(reply(
                        <H as $crate::surfaces::action::Handle<$name>>::handle(handler, request).await?,
                    )), )*
                }
            }
        }

        fn reply<T: serde::Serialize>(value: T) -> serde_json::Value {
            serde_json::to_value(value).unwrap_or(serde_json::Value::Null)
        }

        /// The page's actions, for their TypeScript client functions.
        pub(crate) fn page_clients(cfg: &ts_rs::Config) -> Vec<$crate::surfaces::action::typescript::Client> {
            let mut out = Vec::with_capacity(32);
            $(
                $crate::surfaces::action::declare::page_only! { $reach,
                    out.push($crate::surfaces::action::typescript::Client {
                        name: $wire,
                        request: <$name as ts_rs::TS>::name(cfg),
                        decl: <$name as ts_rs::TS>::decl(cfg),
                        reply: <$reply as ts_rs::TS>::name(cfg),
                        fields: vec![ $( (stringify!($field), stringify!($fty).starts_with("Option")), )* ],
                    });
                }
            )*
            out
        }
    };
}

/// Expands its body only for an action the page may not ask.
macro_rules! not_page {
    (Page, $($body:tt)*) => {};
    ($other:ident, $($body:tt)*) => { $($body)* };
}

pub(crate) use actions;
pub(crate) use bridged;
pub(crate) use not_page;
pub(crate) use page_only;
