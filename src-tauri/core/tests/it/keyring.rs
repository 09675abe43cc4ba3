//! Tokens in the real OS keyring (a Secret Service in a D-Bus session on Linux): stored, reused by
//! the next run, rotated, forgotten. CI sets REDLINE_REQUIRE_KEYRING=1 so it cannot skip there.

use redline_core::platform::keyring::{OsKeyring, SecretStore, Tokens};

fn keyring_or_skip() -> bool {
    match OsKeyring::probe() {
        Ok(()) => true,
        Err(e) if std::env::var_os("REDLINE_REQUIRE_KEYRING").is_some() => {
            panic!("REDLINE_REQUIRE_KEYRING is set but the keyring does not answer: {e}")
        }
        Err(e) => {
            eprintln!("skipped: no OS keyring here ({e})");
            false
        }
    }
}

#[test]
fn tokens_round_trip_through_the_os_keyring_across_runs() {
    if !keyring_or_skip() {
        return;
    }
    let mut suffix = [0u8; 8];
    getrandom::fill(&mut suffix).unwrap();
    let account = format!("/redline-test/{suffix:?}");

    let first_run = Tokens::os();
    assert!(first_run.state().available, "{:?}", first_run.state());
    let token = first_run.token_for(&account).unwrap();
    assert_eq!(
        OsKeyring.get(&account).unwrap().as_deref(),
        Some(token.expose()),
        "stored in the keyring itself"
    );

    let next_run = Tokens::os();
    assert_eq!(
        next_run.token_for(&account).unwrap(),
        token,
        "reused after a restart"
    );

    let rotated = next_run.rotate(&account).unwrap();
    assert_ne!(rotated, token);
    assert_eq!(Tokens::os().token_for(&account).unwrap(), rotated);

    next_run.forget(&account).unwrap();
    assert_eq!(OsKeyring.get(&account).unwrap(), None);
}
