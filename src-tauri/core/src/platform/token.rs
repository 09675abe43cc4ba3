//! Auth tokens: 256 random bits, compared in constant time.

use std::fmt;
use subtle::ConstantTimeEq;

#[derive(Clone, PartialEq, Eq)]
pub struct Token(String);

impl Token {
    /// A fresh token from the OS random source, hex-encoded.
    pub fn generate() -> Self {
        let mut bytes = [0u8; 32];
        // The OS random source failing is not recoverable: a weak token is worse than no start.
        getrandom::fill(&mut bytes).expect("the OS random source is unavailable");
        Token(bytes.iter().map(|b| format!("{b:02x}")).collect())
    }

    /// A token as stored in the keyring; anything but 64 hex digits is refused.
    pub fn parse(s: &str) -> Option<Self> {
        (s.len() == 64 && s.bytes().all(|b| b.is_ascii_hexdigit())).then(|| Token(s.to_owned()))
    }

    pub fn expose(&self) -> &str {
        &self.0
    }

    /// Constant-time comparison with a presented credential.
    pub fn matches(&self, presented: &[u8]) -> bool {
        self.0.as_bytes().ct_eq(presented).into()
    }
}

// Never print the secret, even by accident in a log line.
impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Token(…)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_tokens_are_256_bit_hex_and_distinct() {
        let a = Token::generate();
        let b = Token::generate();
        assert_eq!(a.expose().len(), 64);
        assert!(Token::parse(a.expose()).is_some());
        assert_ne!(a, b);
    }

    #[test]
    fn matches_only_the_whole_token() {
        let t = Token::generate();
        assert!(t.matches(t.expose().as_bytes()));
        assert!(!t.matches(&t.expose().as_bytes()[..63]));
        assert!(!t.matches(b""));
        let mut longer = t.expose().to_owned();
        longer.push('0');
        assert!(!t.matches(longer.as_bytes()));
    }

    #[test]
    fn debug_hides_the_secret() {
        let t = Token::generate();
        assert!(!format!("{t:?}").contains(t.expose()));
    }

    #[test]
    fn parse_refuses_non_tokens() {
        assert!(Token::parse("abc").is_none());
        assert!(Token::parse(&"g".repeat(64)).is_none());
    }
}
