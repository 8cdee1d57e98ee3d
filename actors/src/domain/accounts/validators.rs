//! The form validators of spec account §5: each checks one value and names what is wrong in
//! the app's own words. They check the text exactly as given (no trimming): normalising input
//! is the job of the parsing types (`Phone::parse` and friends) that use them.

use crate::domain::lang::Lang;
use chrono::NaiveDate;

/// Why a value failed a validator. Field-bearing variants carry the form's label for the
/// field, because the app's message names it ('{field}必须是11位手机号码').
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ValidatorError {
    Phone { field: String },
    Tel { field: String },
    Required { field: String },
    Identity,
    BankCard,
    Nickname,
    Illegal,
    ByteMax { max: usize },
    Invisible,
}

impl ValidatorError {
    pub fn message(&self, lang: Lang) -> String {
        use ValidatorError::*;
        match (self, lang) {
            (Phone { field }, Lang::Zh) => format!("{field}必须是11位手机号码"),
            (Phone { field }, Lang::En) => format!("{field} must be an 11-digit mobile number"),
            // The spec gives no text for tel or truthy; these follow the phone message's shape.
            (Tel { field }, Lang::Zh) => format!("{field}必须是手机号码或固定电话"),
            (Tel { field }, Lang::En) => format!("{field} must be a mobile or landline number"),
            (Required { field }, Lang::Zh) => format!("{field}不能为空"),
            (Required { field }, Lang::En) => format!("{field} cannot be empty"),
            (Identity, Lang::Zh) => "身份证号输入不合法".into(),
            (Identity, Lang::En) => "The ID card number is not valid".into(),
            (BankCard, Lang::Zh) => "银行卡号输入不合法".into(),
            (BankCard, Lang::En) => "The bank card number is not valid".into(),
            (Nickname, Lang::Zh) => "必须是由中英文，数字组成".into(),
            (Nickname, Lang::En) => "Must consist of Chinese, letters and digits".into(),
            (Illegal, Lang::Zh) => "不能包含、|'等字符".into(),
            (Illegal, Lang::En) => "Cannot contain characters such as 、 | '".into(),
            (Invisible, Lang::Zh) => "不能包含控制字符或不可见字符".into(),
            (Invisible, Lang::En) => "Cannot contain control or invisible characters".into(),
            (ByteMax { .. }, Lang::Zh) => "请检查字节长度".into(),
            (ByteMax { max }, Lang::En) => format!("Please check the length (at most {max} bytes)"),
        }
    }
}

/// The separators the old system used inside stored address and name text (spec §5), so user
/// text must not contain them.
pub const ILLEGAL_CHARS: [char; 3] = ['、', '|', '\''];

/// A mainland mobile number: 11 digits, 1 then 3–9 (the 13x–19x ranges carriers issue).
pub fn is_mobile(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 11
        && b[0] == b'1'
        && (b'3'..=b'9').contains(&b[1])
        && b.iter().all(u8::is_ascii_digit)
}

pub fn phone(field: &str, value: &str) -> Result<(), ValidatorError> {
    if is_mobile(value) {
        Ok(())
    } else {
        Err(ValidatorError::Phone {
            field: field.into(),
        })
    }
}

/// A mobile, or a landline "0AA-NNNNNNN[-EXT]": the area code is 0 plus 2–3 digits and never
/// 00 (the international prefix); the local number is 7–8 digits and starts 2–9 (0 is the trunk
/// prefix, 1 is for service numbers); the optional extension is 1–6 digits.
pub fn tel(field: &str, value: &str) -> Result<(), ValidatorError> {
    if is_mobile(value) || is_landline(value) {
        Ok(())
    } else {
        Err(ValidatorError::Tel {
            field: field.into(),
        })
    }
}

fn is_landline(s: &str) -> bool {
    let digits = |p: &str, lo: usize, hi: usize| {
        (lo..=hi).contains(&p.len()) && p.bytes().all(|b| b.is_ascii_digit())
    };
    let parts: Vec<&str> = s.split('-').collect();
    let (area, local, ext) = match parts.as_slice() {
        [a, l] => (*a, *l, None),
        [a, l, e] => (*a, *l, Some(*e)),
        _ => return false,
    };
    digits(area, 3, 4)
        && area.starts_with('0')
        && !area.starts_with("00")
        && digits(local, 7, 8)
        && !local.starts_with(['0', '1'])
        && ext.is_none_or(|e| digits(e, 1, 6))
}

/// Values that count as "given" for `truthy`. Unlike JavaScript, blank text is not truthy: a
/// form field of spaces was not filled in.
pub trait Truthy {
    fn is_truthy(&self) -> bool;
}

impl Truthy for bool {
    fn is_truthy(&self) -> bool {
        *self
    }
}

impl Truthy for str {
    fn is_truthy(&self) -> bool {
        !self.trim().is_empty()
    }
}

impl Truthy for String {
    fn is_truthy(&self) -> bool {
        self.as_str().is_truthy()
    }
}

impl Truthy for i64 {
    fn is_truthy(&self) -> bool {
        *self != 0
    }
}

impl Truthy for f64 {
    fn is_truthy(&self) -> bool {
        *self != 0.0 && !self.is_nan()
    }
}

impl<T: Truthy + ?Sized> Truthy for &T {
    fn is_truthy(&self) -> bool {
        (**self).is_truthy()
    }
}

impl<T: Truthy> Truthy for Option<T> {
    fn is_truthy(&self) -> bool {
        self.as_ref().is_some_and(Truthy::is_truthy)
    }
}

pub fn truthy<T: Truthy + ?Sized>(field: &str, value: &T) -> Result<(), ValidatorError> {
    if value.is_truthy() {
        Ok(())
    } else {
        Err(ValidatorError::Required {
            field: field.into(),
        })
    }
}

/// Province-level codes (GB/T 2260) that begin a valid ID number, including 71 (Taiwan) and
/// 81/82/83, the residence permits for Hong Kong, Macau and Taiwan residents, which use the
/// same 18-character format and checksum.
const PROVINCE_CODES: [u8; 35] = [
    11, 12, 13, 14, 15, 21, 22, 23, 31, 32, 33, 34, 35, 36, 37, 41, 42, 43, 44, 45, 46, 50, 51, 52,
    53, 54, 61, 62, 63, 64, 65, 71, 81, 82, 83,
];

/// ISO 7064 MOD 11-2 weights for the first 17 digits, and the check character for each
/// remainder.
const ID_WEIGHTS: [u32; 17] = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const ID_CHECK: [u8; 11] = *b"10X98765432";

/// An 18-character resident ID. A lowercase x is accepted as X because phone keyboards
/// produce it. Without a clock this checks the birth date exists and is from 1900 on; a
/// future date would still need a matching checksum to pass.
pub fn identity(value: &str) -> Result<(), ValidatorError> {
    if is_identity(value) {
        Ok(())
    } else {
        Err(ValidatorError::Identity)
    }
}

fn is_identity(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() != 18 || !b[..17].iter().all(u8::is_ascii_digit) {
        return false;
    }
    let num = |r: std::ops::Range<usize>| s[r].parse::<u32>().unwrap_or(0);
    let province = num(0..2) as u8;
    if !PROVINCE_CODES.contains(&province) {
        return false;
    }
    let year = num(6..10) as i32;
    if year < 1900 || NaiveDate::from_ymd_opt(year, num(10..12), num(12..14)).is_none() {
        return false;
    }
    let sum: u32 = ID_WEIGHTS
        .iter()
        .zip(&b[..17])
        .map(|(w, d)| w * u32::from(d - b'0'))
        .sum();
    ID_CHECK[(sum % 11) as usize] == b[17].to_ascii_uppercase()
}

/// Issuer prefixes (IIN ranges) we accept, as (low, high) over the first `digits` of the card:
/// UnionPay 62; Visa 4; Mastercard 51–55 and 2221–2720; JCB 3528–3589; Discover 6011 and 65.
/// American Express (34, 37) is left out on purpose: its cards have 15 digits, which the
/// spec's 16–19 rule already refuses. Older Chinese debit ranges outside UnionPay's 62 (such
/// as ICBC's 9558) are refused too; add them here if the payment team needs them.
const ISSUER_RANGES: [(usize, u32, u32); 7] = [
    (2, 62, 62),
    (1, 4, 4),
    (2, 51, 55),
    (4, 2221, 2720),
    (4, 3528, 3589),
    (4, 6011, 6011),
    (2, 65, 65),
];

pub fn bankcard(value: &str) -> Result<(), ValidatorError> {
    let ok = (16..=19).contains(&value.len())
        && value.bytes().all(|b| b.is_ascii_digit())
        && has_known_issuer(value)
        && luhn_ok(value);
    if ok {
        Ok(())
    } else {
        Err(ValidatorError::BankCard)
    }
}

fn has_known_issuer(digits: &str) -> bool {
    ISSUER_RANGES.iter().any(|&(n, lo, hi)| {
        digits
            .get(..n)
            .and_then(|p| p.parse::<u32>().ok())
            .is_some_and(|p| (lo..=hi).contains(&p))
    })
}

/// Luhn (mod 10): double every second digit from the right, the check digit undoubled.
fn luhn_ok(digits: &str) -> bool {
    let sum: u32 = digits
        .bytes()
        .rev()
        .enumerate()
        .map(|(i, b)| {
            let d = u32::from(b - b'0');
            match (i % 2 == 1, d * 2) {
                (true, dd) if dd > 9 => dd - 9,
                (true, dd) => dd,
                (false, _) => d,
            }
        })
        .sum();
    sum.is_multiple_of(10)
}

/// A Chinese character: the CJK Unified Ideographs with Extension A, the compatibility block,
/// and Extensions B–F (rare characters that do occur in personal names, such as 𠮷).
pub fn is_cjk_ideograph(c: char) -> bool {
    matches!(c,
        '\u{4E00}'..='\u{9FFF}'
        | '\u{3400}'..='\u{4DBF}'
        | '\u{F900}'..='\u{FAFF}'
        | '\u{20000}'..='\u{2EBEF}')
}

/// Chinese characters, ASCII letters, ASCII digits or '*', at least one of them.
pub fn nickname(value: &str) -> Result<(), ValidatorError> {
    let ok = !value.is_empty()
        && value
            .chars()
            .all(|c| is_cjk_ideograph(c) || c.is_ascii_alphanumeric() || c == '*');
    if ok {
        Ok(())
    } else {
        Err(ValidatorError::Nickname)
    }
}

pub fn illegal(value: &str) -> Result<(), ValidatorError> {
    if value.contains(ILLEGAL_CHARS) {
        Err(ValidatorError::Illegal)
    } else {
        Ok(())
    }
}

/// A character that shows nothing, or changes how the text around it shows, in text a person
/// typed for others to read (a name on an order, a receiver, a remark): the C0 and C1
/// controls; the bidi embeddings, overrides and isolates, which can make "Alice" display as
/// another name or reverse a phone number; the zero-width spaces and joiners and the BOM,
/// which make two names that look alike differ; and the other invisible format characters
/// (Unicode category Cf, the line and paragraph separators, fillers that render as blanks).
pub fn is_hidden_char(c: char) -> bool {
    c.is_control()
        || matches!(c,
            '\u{00AD}'                      // soft hyphen
            | '\u{034F}'                    // combining grapheme joiner
            | '\u{061C}'                    // Arabic letter mark
            | '\u{0600}'..='\u{0605}' | '\u{06DD}' | '\u{070F}' | '\u{0890}'..='\u{0891}' | '\u{08E2}'
            | '\u{115F}'..='\u{1160}'      // Hangul fillers
            | '\u{17B4}'..='\u{17B5}'      // Khmer inherent vowels, invisible
            | '\u{180B}'..='\u{180F}'      // Mongolian variation selectors and vowel separator
            | '\u{200B}'..='\u{200F}'      // zero-width space, (non-)joiner, LRM, RLM
            | '\u{2028}'..='\u{2029}'      // line and paragraph separators
            | '\u{202A}'..='\u{202E}'      // bidi embeddings and overrides
            | '\u{2060}'..='\u{2064}'      // word joiner, invisible operators
            | '\u{2066}'..='\u{206F}'      // bidi isolates, deprecated format characters
            | '\u{3164}'                    // Hangul filler
            | '\u{FE00}'..='\u{FE0F}'      // variation selectors
            | '\u{FEFF}'                    // zero-width no-break space, BOM
            | '\u{FFA0}'                    // half-width Hangul filler
            | '\u{FFF9}'..='\u{FFFB}'      // interlinear annotations
            | '\u{110BD}' | '\u{110CD}'
            | '\u{13430}'..='\u{1343F}'
            | '\u{1BCA0}'..='\u{1BCA3}'
            | '\u{1D173}'..='\u{1D17A}'
            | '\u{E0000}'..='\u{E0FFF}') // tags and variation selectors supplement
}

/// Display text a person typed for others (names above all): refused when it holds any
/// [`is_hidden_char`], so what the store and the customer read is what was typed.
pub fn display_text(value: &str) -> Result<(), ValidatorError> {
    if value.chars().any(is_hidden_char) {
        Err(ValidatorError::Invisible)
    } else {
        Ok(())
    }
}

/// Free text (a remark, a notice) keeps what it can: the hidden characters are dropped.
pub fn strip_hidden(value: &str) -> String {
    value.chars().filter(|c| !is_hidden_char(*c)).collect()
}

/// East Asian wide characters, which the old storage counted as 2 bytes: ideographs, CJK
/// punctuation (。，「」), full-width forms, kana, hangul and bopomofo.
fn is_wide(c: char) -> bool {
    is_cjk_ideograph(c)
        || matches!(c,
            '\u{3000}'..='\u{303F}'
            | '\u{3040}'..='\u{30FF}'
            | '\u{3100}'..='\u{312F}'
            | '\u{31A0}'..='\u{31BF}'
            | '\u{AC00}'..='\u{D7AF}'
            | '\u{FF00}'..='\u{FFEF}')
}

/// Length in the spec's bytes: a wide (CJK) character counts 2, any other character 1.
pub fn byte_len(text: &str) -> usize {
    text.chars().map(|c| if is_wide(c) { 2 } else { 1 }).sum()
}

pub fn byte_max(text: &str, max: usize) -> Result<(), ValidatorError> {
    if byte_len(text) <= max {
        Ok(())
    } else {
        Err(ValidatorError::ByteMax { max })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_text_table() {
        let cases: &[(&str, bool)] = &[
            ("张三", true),
            ("Alice", true),
            ("阿沛·阿旺晋美", true),
            ("Mary-Jane O Brien", true),
            ("José", true),         // precomposed
            ("Jose\u{0301}", true), // a combining accent shows: allowed
            ("𠮷野家", true),
            ("", true),
            ("张\u{0000}三", false),
            ("张\t三", false),
            ("张\n三", false),
            ("a\u{007F}", false),     // DEL
            ("a\u{0085}", false),     // C1 next line
            ("a\u{009B}", false),     // C1 CSI
            ("\u{202E}ecilA", false), // right-to-left override
            ("a\u{202A}b", false),
            ("a\u{202B}b", false),
            ("a\u{202C}b", false),
            ("a\u{202D}b", false),
            ("a\u{2066}b", false), // isolates
            ("a\u{2067}b", false),
            ("a\u{2068}b", false),
            ("a\u{2069}b", false),
            ("Ali\u{200B}ce", false), // zero-width space
            ("a\u{200C}b", false),
            ("a\u{200D}b", false),
            ("a\u{200E}b", false),   // LRM
            ("a\u{200F}b", false),   // RLM
            ("a\u{2060}b", false),   // word joiner
            ("\u{FEFF}张三", false), // BOM
            ("a\u{00AD}b", false),   // soft hyphen
            ("a\u{061C}b", false),
            ("\u{3164}", false), // Hangul filler, looks blank
            ("a\u{2028}b", false),
            ("a\u{E0041}", false), // tag character
            ("a\u{FE0F}", false),
        ];
        for (text, ok) in cases {
            assert_eq!(
                display_text(text).is_ok(),
                *ok,
                "{:?}",
                text.escape_unicode().to_string()
            );
        }
        assert_eq!(strip_hidden("\u{202E}a\u{200B}b\u{0007}c"), "abc");
        for lang in [Lang::Zh, Lang::En] {
            assert!(!ValidatorError::Invisible.message(lang).is_empty());
        }
        // Every code point the rule names is invisible or a control; none is a letter.
        for c in (0..=0x10FFFFu32)
            .filter_map(char::from_u32)
            .filter(|c| is_hidden_char(*c))
        {
            assert!(
                !c.is_alphanumeric()
                    || c == '\u{3164}'
                    || c == '\u{FFA0}'
                    || ('\u{115F}'..='\u{1160}').contains(&c),
                "{:X}",
                c as u32
            );
        }
    }

    #[test]
    fn phone_table() {
        let cases = [
            ("13812345678", true),
            ("19912345678", true),
            ("16612345678", true),
            ("14700000000", true),
            ("12812345678", false), // 12x is not issued
            ("10086000000", false),
            ("1381234567", false),   // 10 digits
            ("138123456789", false), // 12 digits
            ("23812345678", false),
            ("138 1234 5678", false), // the validator does not normalise
            (" 13812345678", false),
            ("1381234567a", false),
            ("", false),
            ("１３８１２３４５６７８", false), // full-width digits
        ];
        for (v, ok) in cases {
            assert_eq!(phone("手机号", v).is_ok(), ok, "{v:?}");
        }
    }

    #[test]
    fn tel_table() {
        let cases = [
            ("13812345678", true),
            ("021-63212345", true),
            ("010-6521234", true),
            ("0755-86013388", true),
            ("0571-8702345-801", true),
            ("021-63212345-123456", true),
            ("021-63212345-1234567", false), // extension too long
            ("21-63212345", false),          // area code must start 0
            ("00852-2345678", false),        // international prefix
            ("021-0321234", false),          // local starts 0
            ("021-123456", false),           // 6 digits
            ("021-632123456", false),        // 9 digits
            ("02163212345", false),          // no dash
            ("021-", false),
            ("", false),
        ];
        for (v, ok) in cases {
            assert_eq!(tel("电话", v).is_ok(), ok, "{v:?}");
        }
    }

    #[test]
    fn truthy_table() {
        let f = "字段";
        assert!(truthy(f, &true).is_ok());
        assert!(truthy(f, &false).is_err());
        assert!(truthy(f, "a").is_ok());
        assert!(truthy(f, "").is_err());
        assert!(truthy(f, "  ").is_err());
        assert!(truthy(f, &String::from("是")).is_ok());
        assert!(truthy(f, &1_i64).is_ok());
        assert!(truthy(f, &0_i64).is_err());
        assert!(truthy(f, &0.5_f64).is_ok());
        assert!(truthy(f, &f64::NAN).is_err());
        assert!(truthy(f, &Some(true)).is_ok());
        assert!(truthy(f, &Some(false)).is_err());
        assert!(truthy(f, &None::<bool>).is_err());
        assert!(truthy(f, &Some("x")).is_ok());
    }

    #[test]
    fn identity_table() {
        let cases = [
            ("11010519491231002X", true), // the classic sample
            ("11010519491231002x", true), // lowercase check letter
            ("110101199003074477", true),
            ("440304199001010011", true),
            ("650102199912315559", true),
            ("810000198001010014", true),  // Hong Kong residence permit
            ("110105200002290013", true),  // 29 Feb in a leap year
            ("110105190002290011", false), // 1900 was not a leap year
            ("110105194912310021", false), // wrong check digit
            ("99010519491231002X", false), // no province 99
            ("00010519491231002X", false),
            ("110105194913310028", false), // month 13
            ("11010518991231002X", false), // before 1900
            ("11010519491231002", false),  // 17 characters
            ("1101051949123100X2", false), // X not last
            ("", false),
        ];
        for (v, ok) in cases {
            assert_eq!(identity(v).is_ok(), ok, "{v:?}");
        }
    }

    #[test]
    fn bankcard_table() {
        let cases = [
            ("6222021234567890128", true),  // UnionPay, 19 digits
            ("6222021234567890123", false), // the same with a wrong check digit
            ("6228480012345671", true),     // UnionPay, 16 digits
            ("622202123456789012", true),   // UnionPay, 18 digits
            ("4111111111111111", true),     // Visa
            ("4000000000000000006", true),  // Visa, 19 digits
            ("5555555555554444", true),     // Mastercard 55
            ("2223003122003222", true),     // Mastercard 2-series
            ("3530111333300000", true),     // JCB
            ("6011111111111117", true),     // Discover
            ("6500000000000002", true),     // Discover 65
            ("378282246310005", false),     // Amex: 15 digits
            ("9558801234567890128", false), // issuer not on the list
            ("7000000000000000", false),
            ("411111111111111", false), // 15 digits
            ("4111 1111 1111 1111", false),
            ("", false),
        ];
        for (v, ok) in cases {
            assert_eq!(bankcard(v).is_ok(), ok, "{v:?}");
        }
    }

    #[test]
    fn nickname_table() {
        let cases = [
            ("张三", true),
            ("Tom", true),
            ("披萨达人2024", true),
            ("***", true),
            ("王*明", true),
            ("𠮷野家", true),
            ("张 三", false),
            ("Tom_Lee", false),
            ("小明！", false),
            ("😀", false),
            ("", false),
        ];
        for (v, ok) in cases {
            assert_eq!(nickname(v).is_ok(), ok, "{v:?}");
        }
    }

    #[test]
    fn illegal_table() {
        let cases = [
            ("上海市黄浦区", true),
            ("", true),
            ("Room 501", true),
            ("A、B", false),
            ("a|b", false),
            ("O'Brien", false),
            ("’", true), // a curly quote is not the separator
            ("｜", true),
            ("5楼501", true),
        ];
        for (v, ok) in cases {
            assert_eq!(illegal(v).is_ok(), ok, "{v:?}");
        }
    }

    #[test]
    fn byte_max_table() {
        let cases = [
            ("", 0, true),
            ("abc", 3, true),
            ("abcd", 3, false),
            ("张三", 4, true),
            ("张三", 3, false),
            ("张a", 3, true),
            ("，。", 4, true), // CJK punctuation is wide
            ("，。", 3, false),
            ("ＡＢ", 4, true), // full-width letters are wide
            ("é", 1, true),    // Latin-1 counts 1
            ("カナ", 3, false),
        ];
        for (v, max, ok) in cases {
            assert_eq!(byte_max(v, max).is_ok(), ok, "{v:?} {max}");
        }
    }

    #[test]
    fn messages() {
        let phone_err = ValidatorError::Phone {
            field: "手机号".into(),
        };
        let cases = [
            (phone_err, Lang::Zh, "手机号必须是11位手机号码"),
            (ValidatorError::Identity, Lang::Zh, "身份证号输入不合法"),
            (ValidatorError::BankCard, Lang::Zh, "银行卡号输入不合法"),
            (
                ValidatorError::Nickname,
                Lang::Zh,
                "必须是由中英文，数字组成",
            ),
            (ValidatorError::Illegal, Lang::Zh, "不能包含、|'等字符"),
            (
                ValidatorError::ByteMax { max: 10 },
                Lang::Zh,
                "请检查字节长度",
            ),
            (
                ValidatorError::ByteMax { max: 10 },
                Lang::En,
                "Please check the length (at most 10 bytes)",
            ),
        ];
        for (e, lang, want) in cases {
            assert_eq!(e.message(lang), want);
        }
    }
}
