//! Random secrets and their hashes. Session tokens and SMS codes are stored only as sha256
//! digests, passwords only as argon2 PHC strings, so a leaked table gives nothing to log in with.

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use rand::rngs::OsRng;
use rand::{Rng, RngCore};
use sha2::{Digest, Sha256};
use std::fmt;
use std::sync::OnceLock;

/// An opaque session token as handed to the client: 32 random bytes, base64url. Debug hides it.
#[derive(Clone, PartialEq, Eq)]
pub struct Token(String);

impl Token {
    pub fn generate() -> Token {
        let mut bytes = [0u8; 32];
        OsRng.fill_bytes(&mut bytes);
        Token(URL_SAFE_NO_PAD.encode(bytes))
    }

    /// Whatever the client sent; only its hash is ever looked up.
    pub fn from_client(text: &str) -> Token {
        Token(text.to_owned())
    }

    /// For the response body only.
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// What the sessions table keys on.
    pub fn hash(&self) -> String {
        sha256_hex(self.0.as_bytes())
    }
}

impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Token(***)")
    }
}

/// A fresh 6-digit SMS code, uniform over 000000–999999.
pub fn sms_code() -> String {
    format!("{:06}", OsRng.gen_range(0..1_000_000u32))
}

/// A per-row salt, so equal codes do not hash alike across rows.
pub fn salt() -> String {
    let mut bytes = [0u8; 16];
    OsRng.fill_bytes(&mut bytes);
    crate::hex::encode(&bytes)
}

pub fn code_hash(salt: &str, code: &str) -> String {
    sha256_hex(format!("{salt}:{code}").as_bytes())
}

pub fn sha256_hex(bytes: &[u8]) -> String {
    crate::hex::encode(&Sha256::digest(bytes))
}

#[derive(Debug, thiserror::Error)]
#[error("password hashing failed: {0}")]
pub struct HashError(String);

/// Argon2id with the crate's default parameters. CPU-heavy by design: call it off the async
/// threads (see `passwords`).
pub fn hash_password(plain: &str) -> Result<String, HashError> {
    let salt = SaltString::generate(&mut OsRng);
    Argon2::default()
        .hash_password(plain.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| HashError(e.to_string()))
}

/// False for a wrong password and for a stored hash that does not parse.
pub fn verify_password(plain: &str, stored: &str) -> bool {
    PasswordHash::new(stored)
        .map(|h| {
            Argon2::default()
                .verify_password(plain.as_bytes(), &h)
                .is_ok()
        })
        .unwrap_or(false)
}

/// A hash of nothing anyone knows, checked when the phone has no account or no password, so
/// such logins take as long as real ones and timing does not tell which phones are registered.
pub fn decoy_hash() -> &'static str {
    static DECOY: OnceLock<String> = OnceLock::new();
    DECOY.get_or_init(|| hash_password(&Token::generate().0).unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_random_base64url_and_hidden() {
        let a = Token::generate();
        let b = Token::generate();
        assert_ne!(a, b);
        assert_eq!(a.expose().len(), 43);
        assert!(a
            .expose()
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || c == b'-' || c == b'_'));
        assert_eq!(format!("{a:?}"), "Token(***)");
        assert_eq!(a.hash(), Token::from_client(a.expose()).hash());
        assert_eq!(a.hash().len(), 64);
    }

    #[test]
    fn codes_and_their_hashes() {
        for _ in 0..100 {
            let code = sms_code();
            assert_eq!(code.len(), 6);
            assert!(code.bytes().all(|c| c.is_ascii_digit()));
        }
        let (s1, s2) = (salt(), salt());
        assert_ne!(s1, s2);
        assert_ne!(code_hash(&s1, "123456"), code_hash(&s2, "123456"));
        assert_eq!(code_hash(&s1, "123456"), code_hash(&s1, "123456"));
        assert!(!code_hash(&s1, "123456").contains("123456"));
    }

    #[test]
    fn passwords() {
        let stored = hash_password("Secret123").unwrap_or_default();
        assert!(stored.starts_with("$argon2id$"));
        assert!(verify_password("Secret123", &stored));
        assert!(!verify_password("Secret124", &stored));
        assert!(!verify_password("Secret123", "not a hash"));
        assert!(!verify_password("Secret123", decoy_hash()));
    }
}
