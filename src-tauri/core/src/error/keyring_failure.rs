//! Why the OS keyring could not keep or give a workspace token (`PlatformError::Keyring`).

#[derive(Debug, thiserror::Error)]
pub enum KeyringFailure {
    /// A probe finding nothing falls back to the `default` collection, which this Secret
    /// Service does not have.
    #[error(
        "the Secret Service answers but has no default keyring to keep tokens in \
         (gnome-keyring makes its login keyring only when unlocked with a non-empty \
         password; or create a keyring in Seahorse and make it the default)"
    )]
    NoDefaultKeyring,
    /// What the keyring answered, in its own words.
    #[error("{0}")]
    Os(#[source] keyring::Error),
}
