//! Where workspace tokens are kept: the OS keyring, or memory for this run when there is none.

use crate::error::{KeyringFailure, Result};
use crate::platform::token::Token;
use crate::platform::PlatformError;
use std::collections::HashMap;
use std::sync::Mutex;

const SERVICE: &str = "redline";

/// A place to keep secrets by account name.
pub trait SecretStore: Send + Sync + 'static {
    fn get(&self, account: &str) -> Result<Option<String>>;
    fn set(&self, account: &str, secret: &str) -> Result<()>;
    fn delete(&self, account: &str) -> Result<()>;
}

/// The OS keyring: Keychain, Windows Credential Manager or the Secret Service.
pub struct OsKeyring;

impl OsKeyring {
    fn entry(account: &str) -> Result<keyring::Entry, PlatformError> {
        keyring::Entry::new(SERVICE, account).map_err(os)
    }

    /// Asks the keyring for a missing entry: a clean "not found" proves it answers.
    pub fn probe() -> Result<()> {
        match Self::entry("redline-probe")?.get_password() {
            Ok(_) | Err(keyring::Error::NoEntry) => Ok(()),
            Err(e) => Err(PlatformError::Keyring(why(e)).into()),
        }
    }
}

/// Why the keyring cannot keep tokens, in words that match what answered.
fn why(e: keyring::Error) -> KeyringFailure {
    if no_default_keyring(&e) {
        return KeyringFailure::NoDefaultKeyring;
    }
    KeyringFailure::Os(e)
}

/// What the keyring answered, as Redline's error.
fn os(e: keyring::Error) -> PlatformError {
    PlatformError::Keyring(KeyringFailure::Os(e))
}

/// A probe finding nothing falls back to the `default` collection; a Secret Service with no
/// collection under that alias answers "no result" (keyring calls it no storage access).
#[cfg(target_os = "linux")]
fn no_default_keyring(e: &keyring::Error) -> bool {
    let keyring::Error::NoStorageAccess(inner) = e else {
        return false;
    };
    matches!(
        inner.downcast_ref::<dbus_secret_service::Error>(),
        Some(dbus_secret_service::Error::NoResult)
    )
}

#[cfg(not(target_os = "linux"))]
fn no_default_keyring(_: &keyring::Error) -> bool {
    false
}

impl SecretStore for OsKeyring {
    fn get(&self, account: &str) -> Result<Option<String>> {
        match Self::entry(account)?.get_password() {
            Ok(s) => Ok(Some(s)),
            Err(keyring::Error::NoEntry) => Ok(None),
            Err(e) => Err(os(e).into()),
        }
    }

    fn set(&self, account: &str, secret: &str) -> Result<()> {
        Self::entry(account)?
            .set_password(secret)
            .map_err(|e| os(e).into())
    }

    fn delete(&self, account: &str) -> Result<()> {
        match Self::entry(account)?.delete_credential() {
            Ok(()) | Err(keyring::Error::NoEntry) => Ok(()),
            Err(e) => Err(os(e).into()),
        }
    }
}

/// Secrets held for this run only.
#[derive(Default)]
pub struct MemoryStore(Mutex<HashMap<String, String>>);

impl SecretStore for MemoryStore {
    fn get(&self, account: &str) -> Result<Option<String>> {
        Ok(self.lock().get(account).cloned())
    }
    fn set(&self, account: &str, secret: &str) -> Result<()> {
        self.lock().insert(account.to_owned(), secret.to_owned());
        Ok(())
    }
    fn delete(&self, account: &str) -> Result<()> {
        self.lock().remove(account);
        Ok(())
    }
}

impl MemoryStore {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, String>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Whether tokens survive a restart.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct KeyringState {
    pub available: bool,
    pub detail: String,
}

/// Workspace tokens: one per workspace, reused across restarts when a keyring is available.
pub struct Tokens {
    store: Box<dyn SecretStore>,
    state: KeyringState,
}

impl Tokens {
    pub fn new(store: Box<dyn SecretStore>, state: KeyringState) -> Self {
        Tokens { store, state }
    }

    /// The OS keyring if it answers, else memory for this run, saying why.
    pub fn os() -> Self {
        match OsKeyring::probe() {
            Ok(()) => Tokens::new(
                Box::new(OsKeyring),
                KeyringState {
                    available: true,
                    detail: "OS keyring".into(),
                },
            ),
            Err(e) => {
                tracing::warn!(
                    "no usable OS keyring ({e}); tokens are kept in memory for this run and \
                     change at every restart"
                );
                Self::memory(format!(
                    "unavailable ({e}); tokens live in memory for this run"
                ))
            }
        }
    }

    pub fn memory(detail: String) -> Self {
        Tokens::new(
            Box::<MemoryStore>::default(),
            KeyringState {
                available: false,
                detail,
            },
        )
    }

    pub fn state(&self) -> &KeyringState {
        &self.state
    }

    /// The stored token for `account`, or a new one stored now.
    pub fn token_for(&self, account: &str) -> Result<Token> {
        if let Some(t) = self.store.get(account)?.as_deref().and_then(Token::parse) {
            return Ok(t);
        }
        self.rotate(account)
    }

    pub fn rotate(&self, account: &str) -> Result<Token> {
        let token = Token::generate();
        self.store.set(account, token.expose())?;
        Ok(token)
    }

    pub fn forget(&self, account: &str) -> Result<()> {
        self.store.delete(account)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_tokens_are_reused_until_rotated() {
        let tokens = Tokens::memory("test".into());
        let a = tokens.token_for("/ws").unwrap();
        assert_eq!(tokens.token_for("/ws").unwrap(), a);
        let b = tokens.rotate("/ws").unwrap();
        assert_ne!(a, b);
        assert_eq!(tokens.token_for("/ws").unwrap(), b);
        tokens.forget("/ws").unwrap();
        assert_ne!(tokens.token_for("/ws").unwrap(), b);
        assert!(!tokens.state().available);
    }

    /// keyring 3 silently falls back to its mock store without its platform features: each OS
    /// must get its native store (Secret Service, Credential Manager, Keychain).
    #[test]
    fn entries_use_the_native_store_of_this_os() {
        let entry = OsKeyring::entry("redline-store-check").unwrap();
        let cred = entry.get_credential();
        #[cfg(target_os = "linux")]
        assert!(cred.is::<keyring::secret_service::SsCredential>());
        #[cfg(windows)]
        assert!(cred.is::<keyring::windows::WinCredential>());
        #[cfg(target_os = "macos")]
        assert!(cred.is::<keyring::macos::MacCredential>());
        assert!(!cred.is::<keyring::mock::MockCredential>());
    }
}
