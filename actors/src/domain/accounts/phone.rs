//! A mainland mobile number, normalised once at the edge (spec account §5) so everything past
//! the handler holds the plain 11 digits.

use crate::domain::accounts::validators::is_mobile;
use crate::domain::lang::Lang;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Only `Phone::parse` builds one. Serialises as the plain 11-digit string.
#[derive(Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Phone(String);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PhoneError {
    Empty,
    Format,
}

impl PhoneError {
    pub fn message(&self, lang: Lang) -> String {
        match (self, lang) {
            (PhoneError::Empty, Lang::Zh) => "手机号不能为空",
            (PhoneError::Empty, Lang::En) => "Mobile phone cannot be empty",
            (PhoneError::Format, Lang::Zh) => "手机号格式不正确",
            (PhoneError::Format, Lang::En) => "The format of the phone number is incorrect",
        }
        .into()
    }
}

/// Needed by serde's `try_from`; Chinese, the product's default language.
impl fmt::Display for PhoneError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message(Lang::Zh))
    }
}

impl std::error::Error for PhoneError {}

/// Spaces (including the full-width one) and dashes people type or paste between groups.
fn is_filler(c: char) -> bool {
    c.is_whitespace() || matches!(c, '-' | '－' | '—')
}

impl Phone {
    /// Accepts what people paste: "138 1234 5678", "138-1234-5678", "+86 13812345678",
    /// "0086-13812345678". A bare "86" prefix is not stripped: "8613812345678" is refused
    /// rather than guessed at.
    pub fn parse(raw: &str) -> Result<Phone, PhoneError> {
        let compact: String = raw.chars().filter(|&c| !is_filler(c)).collect();
        if compact.is_empty() {
            return Err(PhoneError::Empty);
        }
        let national = compact
            .strip_prefix("+86")
            .or_else(|| compact.strip_prefix("0086"))
            .unwrap_or(&compact);
        if is_mobile(national) {
            Ok(Phone(national.to_owned()))
        } else {
            Err(PhoneError::Format)
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// "138****5678": first three and last four shown, the middle four masked.
    pub fn masked(&self) -> String {
        // Always 11 ASCII digits, so byte slicing is safe.
        format!("{}****{}", &self.0[..3], &self.0[7..])
    }
}

/// The full number is personal data; logs and panics get the masked form.
impl fmt::Debug for Phone {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Phone({})", self.masked())
    }
}

impl TryFrom<String> for Phone {
    type Error = PhoneError;
    fn try_from(raw: String) -> Result<Self, Self::Error> {
        Phone::parse(&raw)
    }
}

impl From<Phone> for String {
    fn from(p: Phone) -> String {
        p.0
    }
}

/// The old system stored fake numbers containing 10000000 (e.g. 13100000000 … 10000000000)
/// for accounts without a phone (spec §5); those, and blank text, are no number at all.
pub fn null_if_placeholder(raw: &str) -> Option<&str> {
    if raw.trim().is_empty() || raw.contains("10000000") {
        None
    } else {
        Some(raw)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_table() {
        let ok = |s: &str| Ok(s.to_owned());
        let cases = [
            ("13812345678", ok("13812345678")),
            (" 13812345678 ", ok("13812345678")),
            ("138 1234 5678", ok("13812345678")),
            ("138-1234-5678", ok("13812345678")),
            ("+8613812345678", ok("13812345678")),
            ("+86 138 1234 5678", ok("13812345678")),
            ("0086-13812345678", ok("13812345678")),
            ("\u{3000}19912345678", ok("19912345678")),
            ("", Err(PhoneError::Empty)),
            ("  - ", Err(PhoneError::Empty)),
            ("8613812345678", Err(PhoneError::Format)),
            ("+85212345678", Err(PhoneError::Format)),
            ("12812345678", Err(PhoneError::Format)),
            ("1381234567", Err(PhoneError::Format)),
            ("138123456789", Err(PhoneError::Format)),
            ("021-63212345", Err(PhoneError::Format)),
            ("1381234567x", Err(PhoneError::Format)),
            ("+86+8613812345678", Err(PhoneError::Format)),
        ];
        for (raw, want) in cases {
            let got = Phone::parse(raw).map(|p| p.as_str().to_owned());
            assert_eq!(got, want, "{raw:?}");
        }
    }

    #[test]
    fn masked_and_debug() {
        let cases = [
            ("13812345678", "138****5678"),
            ("19900000001", "199****0001"),
        ];
        for (raw, want) in cases {
            let p = Phone::parse(raw).map_err(|e| e.message(Lang::En));
            assert_eq!(p.as_ref().map(Phone::masked).as_deref(), Ok(want));
            assert_eq!(
                p.map(|p| format!("{p:?}")).as_deref(),
                Ok(format!("Phone({want})").as_str())
            );
        }
    }

    #[test]
    fn serde_plain_string() {
        let p = Phone::parse("+86 138-1234-5678").ok();
        let json = p.as_ref().and_then(|p| serde_json::to_string(p).ok());
        assert_eq!(json.as_deref(), Some("\"13812345678\""));
        let back: Result<Phone, _> = serde_json::from_str("\"138 1234 5678\"");
        assert_eq!(back.ok(), p);
        assert!(serde_json::from_str::<Phone>("\"12345\"").is_err());
    }

    #[test]
    fn placeholder_table() {
        let cases = [
            ("13812345678", Some("13812345678")),
            ("13100000000", None),
            ("10000000000", None),
            ("13810000000", None),
            ("18610000000", None),
            ("13800000001", Some("13800000001")), // many zeros, but no 1 before them
            ("13910000001", Some("13910000001")), // only six zeros after the 1
            ("", None),
            ("   ", None),
            ("021-63212345", Some("021-63212345")),
        ];
        for (raw, want) in cases {
            assert_eq!(null_if_placeholder(raw), want, "{raw:?}");
        }
    }

    #[test]
    fn messages() {
        let cases = [
            (
                PhoneError::Empty,
                "手机号不能为空",
                "Mobile phone cannot be empty",
            ),
            (
                PhoneError::Format,
                "手机号格式不正确",
                "The format of the phone number is incorrect",
            ),
        ];
        for (e, zh, en) in cases {
            assert_eq!(
                (e.message(Lang::Zh), e.message(Lang::En)),
                (zh.into(), en.into())
            );
        }
    }
}
