//! The order remark (spec ordering §3 submit payload, §5): the customer's free text for the
//! store, cleaned once when the order is submitted so the kitchen ticket, the stored order and the
//! order page all show the same text.

use crate::domain::lang::Lang;
use serde::Serialize;

/// Counted in characters of the customer's own text, after cleaning. The contactless note the
/// server adds is not counted, so a remark the form accepted (maxlength 100) is never refused
/// because the box was ticked.
pub const REMARK_MAX_CHARS: usize = 100;
/// Put in front of the remark of a contactless delivery (spec §5).
pub const CONTACTLESS_PREFIX: &str = "【无接触配送】";

/// A stored remark read back: whether it asked for contactless delivery, and the customer's
/// own words without the note.
pub fn split_contactless(remark: &str) -> (bool, &str) {
    match remark.strip_prefix(CONTACTLESS_PREFIX) {
        Some(rest) => (true, rest),
        None => (false, remark),
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RemarkError {
    TooLong,
}

impl RemarkError {
    pub fn message(&self, lang: Lang) -> String {
        match (self, lang) {
            (RemarkError::TooLong, Lang::Zh) => "备注最多100个字".into(),
            (RemarkError::TooLong, Lang::En) => "Remarks can be at most 100 characters".into(),
        }
    }

    /// The request field the error belongs to.
    pub fn field(&self) -> &'static str {
        "remark"
    }
}

/// A cleaned remark; [`Remark::parse`] is the only way to build one. Empty when the customer
/// wrote nothing and did not ask for contactless delivery.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct Remark(String);

impl Remark {
    /// Cleans the text (spec §5: separators and dollar signs stripped, commas made full-width):
    /// line breaks and tabs become spaces; `|` `^` `~` `` ` `` `\` `$` and other control
    /// characters are dropped (the old order pipeline split on them), and so are bidi overrides,
    /// zero-width and other invisible characters; `,` becomes `，`; runs of
    /// spaces become one; the ends are trimmed. Then, for a contactless delivery, the note is
    /// put in front, once: text the customer already began with the note keeps a single one.
    pub fn parse(raw: &str, contactless: bool) -> Result<Remark, RemarkError> {
        let cleaned = clean(raw);
        let mut body = cleaned.as_str();
        let mut had_note = false;
        while let Some(rest) = body.strip_prefix(CONTACTLESS_PREFIX) {
            body = rest.trim_start();
            had_note = true;
        }
        if body.chars().count() > REMARK_MAX_CHARS {
            return Err(RemarkError::TooLong);
        }
        if contactless || had_note {
            Ok(Remark(format!("{CONTACTLESS_PREFIX}{body}")))
        } else {
            Ok(Remark(body.to_owned()))
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

fn clean(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    for c in raw.chars() {
        let c = match c {
            '\r' | '\n' | '\t' => ' ',
            '|' | '^' | '~' | '`' | '\\' | '$' => continue,
            ',' => '，',
            // Controls, bidi overrides, zero-width and other invisible characters: the kitchen
            // ticket must read as the customer's text reads.
            c if crate::domain::accounts::validators::is_hidden_char(c) => continue,
            c => c,
        };
        if c == ' ' && (out.is_empty() || out.ends_with(' ')) {
            continue;
        }
        out.push(c);
    }
    out.trim().to_owned()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn a_stored_remark_says_whether_it_is_contactless() {
        let cases = [
            ("", (false, "")),
            ("少放辣", (false, "少放辣")),
            ("【无接触配送】", (true, "")),
            ("【无接触配送】 放门口", (true, " 放门口")),
            ("放门口【无接触配送】", (false, "放门口【无接触配送】")),
        ];
        for (stored, want) in cases {
            assert_eq!(split_contactless(stored), want, "{stored}");
        }
    }

    #[test]
    fn parse_cases() {
        let hundred_s = "辣".repeat(100);
        let hundred_one_s = "辣".repeat(101);
        let with_note_s = format!("{CONTACTLESS_PREFIX}{hundred_s}");
        let dollars_s = format!("$$$$${hundred_s}|||");
        let (hundred, hundred_one) = (hundred_s.as_str(), hundred_one_s.as_str());
        let (with_note, dollars) = (with_note_s.as_str(), dollars_s.as_str());
        let cases: Vec<(&str, bool, Result<&str, RemarkError>)> = vec![
            ("少放辣", false, Ok("少放辣")),
            ("少\u{202E}放\u{200B}辣\u{FEFF}", false, Ok("少放辣")),
            ("  少放辣 \u{3000}", false, Ok("少放辣")),
            ("", false, Ok("")),
            ("   \r\n\t ", false, Ok("")),
            ("a|b^c~d`e\\f$g", false, Ok("abcdefg")),
            ("共$30元", false, Ok("共30元")),
            ("line1\r\nline2\tx", false, Ok("line1 line2 x")),
            ("a,b,c", false, Ok("a，b，c")),
            ("不要香菜，谢谢", false, Ok("不要香菜，谢谢")),
            ("a    b", false, Ok("a b")),
            ("a $ b", false, Ok("a b")),
            ("a\u{0}b\u{7f}c", false, Ok("abc")),
            ("少放辣", true, Ok("【无接触配送】少放辣")),
            ("", true, Ok("【无接触配送】")),
            ("  ", true, Ok("【无接触配送】")),
            ("【无接触配送】少放辣", true, Ok("【无接触配送】少放辣")),
            ("【无接触配送】 少放辣", true, Ok("【无接触配送】少放辣")),
            (
                "【无接触配送】【无接触配送】少放辣",
                true,
                Ok("【无接触配送】少放辣"),
            ),
            // Typed by the customer without ticking the box: kept as written.
            ("【无接触配送】少放辣", false, Ok("【无接触配送】少放辣")),
            // Note placed elsewhere is just text.
            (
                "少放辣【无接触配送】",
                true,
                Ok("【无接触配送】少放辣【无接触配送】"),
            ),
            (hundred, false, Ok(hundred)),
            (hundred, true, Ok(with_note)),
            (with_note, true, Ok(with_note)),
            (dollars, false, Ok(hundred)),
            (hundred_one, false, Err(RemarkError::TooLong)),
            (hundred_one, true, Err(RemarkError::TooLong)),
        ];
        for (raw, contactless, want) in cases {
            let got = Remark::parse(raw, contactless);
            assert_eq!(
                got.as_ref().map(Remark::as_str).map_err(|e| *e),
                want,
                "{raw:?} contactless={contactless}"
            );
        }
    }

    #[test]
    fn limit_counts_characters_not_bytes() {
        // 100 Chinese characters are 300 bytes.
        assert!(Remark::parse(&"好".repeat(100), false).is_ok());
        assert!(Remark::parse(&"a".repeat(100), false).is_ok());
        assert_eq!(
            Remark::parse(&"a".repeat(101), false),
            Err(RemarkError::TooLong)
        );
        // Spaces that collapse do not count twice.
        let spaced = format!("{}     {}", "a".repeat(49), "b".repeat(50));
        assert_eq!(Remark::parse(&spaced, false).unwrap().as_str().len(), 100);
    }

    #[test]
    fn messages_and_serialisation() {
        assert_eq!(RemarkError::TooLong.message(Lang::Zh), "备注最多100个字");
        assert_eq!(
            RemarkError::TooLong.message(Lang::En),
            "Remarks can be at most 100 characters"
        );
        assert_eq!(RemarkError::TooLong.field(), "remark");
        let r = Remark::parse("a,b", false).unwrap();
        assert_eq!(serde_json::to_string(&r).unwrap(), "\"a，b\"");
        assert!(Remark::default().is_empty());
    }
}
