//! Sales channels (spec ordering §1): where a request comes from, by numeric id.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "u16", try_from = "u16")]
pub enum Channel {
    Wap,
    Web,
    Android,
    Ios,
    Wechat,
    Alipay,
    MealVoucherPartner,
    MobileCarrier,
    Bank,
    Harmony,
}

impl Channel {
    pub const ALL: [Channel; 10] = [
        Channel::Wap,
        Channel::Web,
        Channel::Android,
        Channel::Ios,
        Channel::Wechat,
        Channel::Alipay,
        Channel::MealVoucherPartner,
        Channel::MobileCarrier,
        Channel::Bank,
        Channel::Harmony,
    ];

    pub fn id(self) -> u16 {
        match self {
            Channel::Wap => 1,
            Channel::Web => 2,
            Channel::Android => 3,
            Channel::Ios => 4,
            Channel::Wechat => 5,
            Channel::Alipay => 9,
            Channel::MealVoucherPartner => 30,
            Channel::MobileCarrier => 31,
            Channel::Bank => 37,
            Channel::Harmony => 46,
        }
    }

    pub fn from_id(id: u16) -> Option<Channel> {
        Channel::ALL.into_iter().find(|c| c.id() == id)
    }

    /// Parses the `X-Channel-Id` header text.
    pub fn parse(text: &str) -> Option<Channel> {
        text.trim().parse::<u16>().ok().and_then(Channel::from_id)
    }

    /// The native apps (the prepaid card and wallet deep links exist only there).
    pub fn is_app(self) -> bool {
        matches!(self, Channel::Android | Channel::Ios | Channel::Harmony)
    }
}

impl From<Channel> for u16 {
    fn from(c: Channel) -> u16 {
        c.id()
    }
}

impl TryFrom<u16> for Channel {
    type Error = String;
    fn try_from(id: u16) -> Result<Channel, String> {
        Channel::from_id(id).ok_or_else(|| format!("unknown channel {id}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_known_id_and_nothing_else() {
        let cases = [
            ("1", Some(Channel::Wap)),
            ("2", Some(Channel::Web)),
            (" 3 ", Some(Channel::Android)),
            ("4", Some(Channel::Ios)),
            ("5", Some(Channel::Wechat)),
            ("9", Some(Channel::Alipay)),
            ("30", Some(Channel::MealVoucherPartner)),
            ("31", Some(Channel::MobileCarrier)),
            ("37", Some(Channel::Bank)),
            ("46", Some(Channel::Harmony)),
            ("0", None),
            ("6", None),
            ("web", None),
            ("", None),
            ("-1", None),
            ("99999999", None),
        ];
        for (text, want) in cases {
            assert_eq!(Channel::parse(text), want, "{text:?}");
        }
    }
}
