//! A staff member's new tablet PIN: 6 to 12 digits (the tablet's keypad has nothing else),
//! not one digit repeated and not a run up or down (000000, 123456, 987654), which are the
//! first a guesser tries. PINs already in use are only checked for a match at login.

use crate::domain::lang::Lang;

pub const PIN_MIN_DIGITS: usize = 6;
pub const PIN_MAX_DIGITS: usize = 12;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PinError {
    /// Not 6 to 12 digits.
    Format,
    /// One digit repeated, or a run up or down.
    Guessable,
    /// The same as the PIN it replaces.
    Unchanged,
}

impl PinError {
    pub fn message(self, lang: Lang) -> &'static str {
        match (self, lang) {
            (PinError::Format, Lang::Zh) => "PIN须为6-12位数字",
            (PinError::Format, Lang::En) => "The PIN must be 6 to 12 digits",
            (PinError::Guessable, Lang::Zh) => "PIN过于简单，请勿使用重复或连续的数字",
            (PinError::Guessable, Lang::En) => {
                "The PIN is too easy to guess: no repeated or consecutive digits"
            }
            (PinError::Unchanged, Lang::Zh) => "新PIN不能与原PIN相同",
            (PinError::Unchanged, Lang::En) => "The new PIN must differ from the current one",
        }
    }
}

/// A PIN that passed the rules for a new one.
#[derive(Clone, PartialEq, Eq)]
pub struct NewPin(String);

impl NewPin {
    /// `current`: the PIN it replaces, as typed.
    pub fn parse(raw: &str, current: &str) -> Result<NewPin, PinError> {
        let pin = raw.trim();
        let digits = pin.as_bytes();
        if !(PIN_MIN_DIGITS..=PIN_MAX_DIGITS).contains(&digits.len())
            || !digits.iter().all(u8::is_ascii_digit)
        {
            return Err(PinError::Format);
        }
        let steps: Vec<i16> = digits
            .windows(2)
            .map(|w| i16::from(w[1]) - i16::from(w[0]))
            .collect();
        if [0, 1, -1]
            .iter()
            .any(|step| steps.iter().all(|s| s == step))
        {
            return Err(PinError::Guessable);
        }
        if pin == current.trim() {
            return Err(PinError::Unchanged);
        }
        Ok(NewPin(pin.to_owned()))
    }

    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for NewPin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("NewPin(…)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_pins() {
        let cases: &[(&str, Result<&str, PinError>)] = &[
            ("135790", Ok("135790")),
            (" 246813 ", Ok("246813")),
            ("902211884466", Ok("902211884466")),
            ("12345", Err(PinError::Format)),
            ("1357902468135", Err(PinError::Format)),
            ("12ab56", Err(PinError::Format)),
            ("１３５７９０", Err(PinError::Format)),
            ("", Err(PinError::Format)),
            ("000000", Err(PinError::Guessable)),
            ("123456", Err(PinError::Guessable)),
            ("987654", Err(PinError::Guessable)),
            ("456789012", Ok("456789012")),
            ("246810", Err(PinError::Unchanged)),
        ];
        for (raw, want) in cases {
            let got = NewPin::parse(raw, "246810");
            assert_eq!(
                got.as_ref().map(NewPin::expose).map_err(|e| *e),
                *want,
                "{raw:?}"
            );
        }
        for e in [PinError::Format, PinError::Guessable, PinError::Unchanged] {
            assert!(!e.message(Lang::Zh).is_empty() && !e.message(Lang::En).is_empty());
        }
        assert_eq!(
            format!("{:?}", NewPin::parse("135790", "").ok()),
            "Some(NewPin(…))"
        );
    }
}
