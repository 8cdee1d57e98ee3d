//! Money is integer fen everywhere inside; yuan with at most 2 decimals only at the JSON edge.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::iter::Sum;
use std::ops::{Add, AddAssign, Mul, Sub};

/// An amount of money in fen (1 yuan = 100 fen).
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct Fen(pub i64);

impl Fen {
    pub const ZERO: Fen = Fen(0);

    /// Yuan as a JSON number: 8990 fen is 89.9.
    pub fn yuan(self) -> f64 {
        self.0 as f64 / 100.0
    }

    /// Parses a client-sent yuan figure, refusing more than 2 decimals. Only for comparing
    /// with a server-computed amount: client figures are never trusted as prices.
    pub fn from_yuan(yuan: f64) -> Option<Fen> {
        if !yuan.is_finite() {
            return None;
        }
        let fen = (yuan * 100.0).round();
        if (fen - yuan * 100.0).abs() > 1e-6 || fen.abs() > 1e15 {
            return None;
        }
        Some(Fen(fen as i64))
    }
}

impl fmt::Display for Fen {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        let abs = self.0.unsigned_abs();
        write!(f, "{sign}{}.{:02}", abs / 100, abs % 100)
    }
}

impl Add for Fen {
    type Output = Fen;
    fn add(self, rhs: Fen) -> Fen {
        Fen(self.0 + rhs.0)
    }
}

impl AddAssign for Fen {
    fn add_assign(&mut self, rhs: Fen) {
        self.0 += rhs.0;
    }
}

impl Sub for Fen {
    type Output = Fen;
    fn sub(self, rhs: Fen) -> Fen {
        Fen(self.0 - rhs.0)
    }
}

impl Mul<i64> for Fen {
    type Output = Fen;
    fn mul(self, rhs: i64) -> Fen {
        Fen(self.0 * rhs)
    }
}

impl Sum for Fen {
    fn sum<I: Iterator<Item = Fen>>(iter: I) -> Fen {
        Fen(iter.map(|f| f.0).sum())
    }
}

/// serde helper for DTO fields: `#[serde(with = "yuan")]` writes fen as a yuan number.
pub mod yuan {
    use super::Fen;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(fen: &Fen, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_f64(fen.yuan())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Fen, D::Error> {
        let v = f64::deserialize(d)?;
        Fen::from_yuan(v)
            .ok_or_else(|| serde::de::Error::custom("amount must have at most 2 decimals"))
    }

    /// `#[serde(with = "yuan::option")]`: null, or fen as a yuan number.
    pub mod option {
        use super::Fen;
        use serde::Serializer;

        pub fn serialize<S: Serializer>(fen: &Option<Fen>, s: S) -> Result<S::Ok, S::Error> {
            match fen {
                Some(f) => s.serialize_some(&f.yuan()),
                None => s.serialize_none(),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yuan_round_trips() {
        let cases = [
            (8990, 89.9),
            (1, 0.01),
            (0, 0.0),
            (12345, 123.45),
            (-250, -2.5),
        ];
        for (fen, yuan) in cases {
            assert_eq!(Fen(fen).yuan(), yuan, "{fen}");
            assert_eq!(Fen::from_yuan(yuan), Some(Fen(fen)), "{yuan}");
        }
    }

    #[test]
    fn refuses_more_than_two_decimals() {
        assert_eq!(Fen::from_yuan(1.001), None);
        assert_eq!(Fen::from_yuan(f64::NAN), None);
    }

    #[test]
    fn displays_two_decimals() {
        assert_eq!(Fen(8990).to_string(), "89.90");
        assert_eq!(Fen(5).to_string(), "0.05");
        assert_eq!(Fen(-105).to_string(), "-1.05");
    }
}
