//! The member profile and login inputs (spec account §5): each field becomes a type that only
//! its `parse` builds, so a handler past the edge never holds an unchecked string.

use crate::domain::accounts::validators::{display_text, ILLEGAL_CHARS};
use crate::domain::lang::Lang;
use chrono::{Months, NaiveDate};
use serde::{Deserialize, Serialize};
use std::fmt;

pub const NAME_MAX_CHARS: usize = 15;
pub const EMAIL_MAX_CHARS: usize = 64;
pub const PASSWORD_MIN_CHARS: usize = 8;
pub const PASSWORD_MAX_CHARS: usize = 20;
pub const SMS_CODE_DIGITS: usize = 6;
/// Members register from age 14; the date picker opens there (spec §5).
pub const DEFAULT_BIRTHDAY_YEARS: u32 = 14;

/// The earliest birth date the profile accepts (spec §5).
pub fn min_birthday() -> NaiveDate {
    NaiveDate::from_ymd_opt(1910, 1, 1).unwrap_or(NaiveDate::MIN)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProfileError {
    NameEmpty,
    NameTooLong,
    NameIllegal,
    NameInvisible,
    EmailEmpty,
    EmailTooLong,
    EmailFormat,
    GenderEmpty,
    GenderInvalid,
    BirthdayEmpty,
    BirthdayFormat,
    BirthdayTooEarly,
    BirthdayInFuture,
    PasswordEmpty,
    PasswordSpace,
    PasswordChars,
    PasswordLength,
    PasswordWeak,
    SmsCodeEmpty,
    SmsCodeFormat,
}

impl ProfileError {
    pub fn message(&self, lang: Lang) -> String {
        use ProfileError::*;
        let (zh, en) = match self {
            NameEmpty => ("姓名不能为空", "Name cannot be empty"),
            NameTooLong => ("姓名不能超过15个字符", "Name cannot exceed 15 characters"),
            NameIllegal => (
                "不能包含、|'等字符",
                "Cannot contain characters such as 、 | '",
            ),
            NameInvisible => (
                "姓名不能包含控制字符或不可见字符",
                "Name cannot contain control or invisible characters",
            ),
            EmailEmpty => ("邮箱不能为空", "Email cannot be empty"),
            EmailTooLong => ("邮箱不能超过64个字符", "Email cannot exceed 64 characters"),
            EmailFormat => ("邮箱格式错误", "Email format error"),
            GenderEmpty => ("性别不能为空", "Gender cannot be empty"),
            GenderInvalid => ("性别不合法", "Gender is not valid"),
            BirthdayEmpty => ("生日不能为空", "Birthday cannot be empty"),
            BirthdayFormat => ("生日格式不正确", "Birthday must be a date like 1990-01-31"),
            BirthdayTooEarly => (
                "生日不能早于1910-01-01",
                "Birthday cannot be before 1910-01-01",
            ),
            BirthdayInFuture => ("生日不能晚于今天", "Birthday cannot be after today"),
            PasswordEmpty => ("密码不能为空", "Password cannot be empty"),
            PasswordSpace => ("密码不能包含空格", "Password cannot contain spaces"),
            PasswordChars => (
                "密码只能包含字母、数字和英文符号",
                "Password can only contain letters, digits and ASCII symbols",
            ),
            PasswordLength => ("密码长度须为8-20位", "Password must be 8 to 20 characters"),
            PasswordWeak => (
                "密码须同时包含字母和数字",
                "Password must contain both letters and digits",
            ),
            SmsCodeEmpty => ("请输入验证码", "Please enter the verification code"),
            SmsCodeFormat => ("验证码为6位数字", "The verification code must be 6 digits"),
        };
        match lang {
            Lang::Zh => zh.into(),
            Lang::En => en.into(),
        }
    }
}

/// The member's real name: required, at most 15 characters (not bytes), none of the old
/// storage's separators.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct PersonName(String);

impl PersonName {
    pub fn parse(raw: &str) -> Result<PersonName, ProfileError> {
        let name = raw.trim();
        if name.is_empty() {
            Err(ProfileError::NameEmpty)
        } else if display_text(name).is_err() {
            Err(ProfileError::NameInvisible)
        } else if name.contains(ILLEGAL_CHARS) {
            Err(ProfileError::NameIllegal)
        } else if name.chars().count() > NAME_MAX_CHARS {
            Err(ProfileError::NameTooLong)
        } else {
            Ok(PersonName(name.to_owned()))
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A plain address as mail clients accept it: ASCII local part of letters, digits and
/// `._%+-` without leading, trailing or doubled dots; a domain of at least two labels with an
/// alphabetic top level. Quoted local parts and internationalised domains are refused: no
/// member needs them and they break downstream mailers. Kept as typed (trimmed).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct Email(String);

impl Email {
    pub fn parse(raw: &str) -> Result<Email, ProfileError> {
        let email = raw.trim();
        if email.is_empty() {
            return Err(ProfileError::EmailEmpty);
        }
        if email.chars().count() > EMAIL_MAX_CHARS {
            return Err(ProfileError::EmailTooLong);
        }
        match email.split_once('@') {
            Some((local, domain)) if valid_local(local) && valid_domain(domain) => {
                Ok(Email(email.to_owned()))
            }
            _ => Err(ProfileError::EmailFormat),
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

fn valid_local(local: &str) -> bool {
    !local.is_empty()
        && !local.starts_with('.')
        && !local.ends_with('.')
        && !local.contains("..")
        && local
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"._%+-".contains(&b))
}

fn valid_domain(domain: &str) -> bool {
    let labels: Vec<&str> = domain.split('.').collect();
    let label_ok = |l: &&str| {
        (1..=63).contains(&l.len())
            && !l.starts_with('-')
            && !l.ends_with('-')
            && l.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
    };
    let tld_ok = labels
        .last()
        .is_some_and(|t| t.len() >= 2 && t.bytes().all(|b| b.is_ascii_alphabetic()));
    labels.len() >= 2 && labels.iter().all(label_ok) && tld_ok
}

/// The stored codes. Unknown (0) is accepted: it is what accounts that never chose hold, and
/// refusing it would block saving any other profile field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "i64", into = "u8")]
pub enum Gender {
    Unknown,
    Male,
    Female,
}

impl Gender {
    pub fn from_code(code: i64) -> Result<Gender, ProfileError> {
        match code {
            0 => Ok(Gender::Unknown),
            1 => Ok(Gender::Male),
            2 => Ok(Gender::Female),
            _ => Err(ProfileError::GenderInvalid),
        }
    }

    /// The number as form text ("1"); blank is "cannot be empty".
    pub fn parse(raw: &str) -> Result<Gender, ProfileError> {
        let text = raw.trim();
        if text.is_empty() {
            return Err(ProfileError::GenderEmpty);
        }
        text.parse::<i64>()
            .map_err(|_| ProfileError::GenderInvalid)
            .and_then(Gender::from_code)
    }

    pub fn code(self) -> u8 {
        match self {
            Gender::Unknown => 0,
            Gender::Male => 1,
            Gender::Female => 2,
        }
    }
}

impl TryFrom<i64> for Gender {
    type Error = ProfileError;
    fn try_from(code: i64) -> Result<Self, Self::Error> {
        Gender::from_code(code)
    }
}

impl From<Gender> for u8 {
    fn from(g: Gender) -> u8 {
        g.code()
    }
}

/// Needed by serde's `try_from`; Chinese, the product's default language.
impl fmt::Display for ProfileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message(Lang::Zh))
    }
}

impl std::error::Error for ProfileError {}

/// A birth date between 1910-01-01 and today. `today` is passed in (in the business time
/// zone) so the rule stays pure and testable. Serialises as "YYYY-MM-DD".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct Birthday(NaiveDate);

impl Birthday {
    /// Strictly "YYYY-MM-DD" with zero padding: chrono's own parser would also take
    /// "1990-1-5" or "+1990-01-05", which the date picker never sends.
    pub fn parse(raw: &str, today: NaiveDate) -> Result<Birthday, ProfileError> {
        let text = raw.trim();
        if text.is_empty() {
            return Err(ProfileError::BirthdayEmpty);
        }
        let date = strict_ymd(text).ok_or(ProfileError::BirthdayFormat)?;
        if date < min_birthday() {
            Err(ProfileError::BirthdayTooEarly)
        } else if date > today {
            Err(ProfileError::BirthdayInFuture)
        } else {
            Ok(Birthday(date))
        }
    }

    pub fn date(self) -> NaiveDate {
        self.0
    }
}

fn strict_ymd(text: &str) -> Option<NaiveDate> {
    let b = text.as_bytes();
    let shape = b.len() == 10
        && b[4] == b'-'
        && b[7] == b'-'
        && b.iter()
            .enumerate()
            .all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit());
    if !shape {
        return None;
    }
    let y = text[0..4].parse().ok()?;
    let m = text[5..7].parse().ok()?;
    let d = text[8..10].parse().ok()?;
    NaiveDate::from_ymd_opt(y, m, d)
}

/// Where the birthday picker opens: 14 years before today. chrono clamps to the month's end,
/// so 29 February becomes 28 February in a common year; never before the minimum.
pub fn default_birthday(today: NaiveDate) -> NaiveDate {
    today
        .checked_sub_months(Months::new(DEFAULT_BIRTHDAY_YEARS * 12))
        .unwrap_or(min_birthday())
        .max(min_birthday())
}

/// A login or new password: 8–20 characters, printable ASCII only (full-width characters
/// from a Chinese input method could not be retyped on another keyboard), no spaces, at least
/// one letter and one digit. Never trimmed: a space is an error, not noise. Debug prints
/// "***" and there is no Display or Serialize, so it cannot leak into logs or responses.
#[derive(Clone, PartialEq, Eq)]
pub struct Password(String);

impl Password {
    pub fn parse(raw: &str) -> Result<Password, ProfileError> {
        if raw.is_empty() {
            return Err(ProfileError::PasswordEmpty);
        }
        if raw.chars().any(char::is_whitespace) {
            return Err(ProfileError::PasswordSpace);
        }
        if !raw.chars().all(|c| c.is_ascii_graphic()) {
            return Err(ProfileError::PasswordChars);
        }
        if !(PASSWORD_MIN_CHARS..=PASSWORD_MAX_CHARS).contains(&raw.len()) {
            return Err(ProfileError::PasswordLength);
        }
        let letter = raw.bytes().any(|b| b.is_ascii_alphabetic());
        let digit = raw.bytes().any(|b| b.is_ascii_digit());
        if !(letter && digit) {
            return Err(ProfileError::PasswordWeak);
        }
        Ok(Password(raw.to_owned()))
    }

    /// For the hasher only; the name makes every use visible in review.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Password {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("***")
    }
}

/// A 6-digit SMS verification code. Surrounding and inner spaces are dropped, because codes
/// are often pasted from the message as "123 456". Debug prints "******".
#[derive(Clone, PartialEq, Eq)]
pub struct SmsCode(String);

impl SmsCode {
    pub fn parse(raw: &str) -> Result<SmsCode, ProfileError> {
        let code: String = raw.chars().filter(|c| !c.is_whitespace()).collect();
        if code.is_empty() {
            Err(ProfileError::SmsCodeEmpty)
        } else if code.len() == SMS_CODE_DIGITS && code.bytes().all(|b| b.is_ascii_digit()) {
            Ok(SmsCode(code))
        } else {
            Err(ProfileError::SmsCodeFormat)
        }
    }

    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for SmsCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("******")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ProfileError::*;

    fn date(y: i32, m: u32, d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, d).unwrap_or(NaiveDate::MIN)
    }

    #[test]
    fn person_name_table() {
        let cases = [
            ("张三", Ok("张三")),
            ("  李四 ", Ok("李四")),
            ("John Smith", Ok("John Smith")),
            ("阿沛·阿旺晋美", Ok("阿沛·阿旺晋美")),
            (
                "一二三四五六七八九十一二三四五",
                Ok("一二三四五六七八九十一二三四五"),
            ),
            ("一二三四五六七八九十一二三四五六", Err(NameTooLong)),
            ("Alexander Hamilt", Err(NameTooLong)),
            ("", Err(NameEmpty)),
            ("   ", Err(NameEmpty)),
            ("O'Brien", Err(NameIllegal)),
            ("张|三", Err(NameIllegal)),
            ("\u{202E}三张", Err(NameInvisible)),
            ("张\u{200B}三", Err(NameInvisible)),
            ("张\u{0085}三", Err(NameInvisible)),
            ("\u{FEFF}张三", Err(NameInvisible)),
            ("张\u{0}三", Err(NameInvisible)),
            ("张\t三", Err(NameInvisible)),
            ("张、三", Err(NameIllegal)),
        ];
        for (raw, want) in cases {
            let got = PersonName::parse(raw);
            assert_eq!(
                got.as_ref().map(PersonName::as_str),
                want.as_ref().copied(),
                "{raw:?}"
            );
        }
    }

    #[test]
    fn email_table() {
        let long = format!("{}@example.com", "a".repeat(52)); // 64 characters
        let too_long = format!("{}@example.com", "a".repeat(53));
        let cases = [
            ("user@example.com", Ok(())),
            (" user.name+tag@mail.example.cn ", Ok(())),
            ("a_b-c%d@sub-domain.example.org", Ok(())),
            ("12345@qq.com", Ok(())),
            (long.as_str(), Ok(())),
            (too_long.as_str(), Err(EmailTooLong)),
            ("", Err(EmailEmpty)),
            ("plain", Err(EmailFormat)),
            ("@example.com", Err(EmailFormat)),
            ("user@", Err(EmailFormat)),
            ("user@localhost", Err(EmailFormat)),
            ("user@@example.com", Err(EmailFormat)),
            ("a@b@example.com", Err(EmailFormat)),
            (".user@example.com", Err(EmailFormat)),
            ("us..er@example.com", Err(EmailFormat)),
            ("user@-example.com", Err(EmailFormat)),
            ("user@example.c", Err(EmailFormat)),
            ("user@example.123", Err(EmailFormat)),
            ("user name@example.com", Err(EmailFormat)),
            ("用户@example.com", Err(EmailFormat)),
            ("user@example..com", Err(EmailFormat)),
        ];
        for (raw, want) in cases {
            assert_eq!(Email::parse(raw).map(|_| ()), want, "{raw:?}");
        }
        assert_eq!(
            Email::parse(" a@b.cn ").map(|e| e.as_str().to_owned()),
            Ok("a@b.cn".to_owned())
        );
    }

    #[test]
    fn gender_table() {
        let cases = [
            ("0", Ok(Gender::Unknown)),
            ("1", Ok(Gender::Male)),
            ("2", Ok(Gender::Female)),
            (" 2 ", Ok(Gender::Female)),
            ("3", Err(GenderInvalid)),
            ("-1", Err(GenderInvalid)),
            ("male", Err(GenderInvalid)),
            ("", Err(GenderEmpty)),
        ];
        for (raw, want) in cases {
            assert_eq!(Gender::parse(raw), want, "{raw:?}");
        }
        for g in [Gender::Unknown, Gender::Male, Gender::Female] {
            assert_eq!(Gender::from_code(i64::from(g.code())), Ok(g));
            assert_eq!(serde_json::to_string(&g).ok(), Some(g.code().to_string()));
        }
        assert_eq!(
            serde_json::from_str::<Gender>("2").ok(),
            Some(Gender::Female)
        );
        assert!(serde_json::from_str::<Gender>("7").is_err());
    }

    #[test]
    fn birthday_table() {
        let today = date(2025, 6, 15);
        let cases = [
            ("1990-01-31", Ok(date(1990, 1, 31))),
            (" 2000-02-29 ", Ok(date(2000, 2, 29))),
            ("1910-01-01", Ok(date(1910, 1, 1))),
            ("2025-06-15", Ok(today)),
            ("1909-12-31", Err(BirthdayTooEarly)),
            ("2025-06-16", Err(BirthdayInFuture)),
            ("2001-02-29", Err(BirthdayFormat)),
            ("1990-13-01", Err(BirthdayFormat)),
            ("1990-1-5", Err(BirthdayFormat)),
            ("1990/01/05", Err(BirthdayFormat)),
            ("19900105", Err(BirthdayFormat)),
            ("+1990-01-05", Err(BirthdayFormat)),
            ("", Err(BirthdayEmpty)),
        ];
        for (raw, want) in cases {
            assert_eq!(
                Birthday::parse(raw, today).map(Birthday::date),
                want,
                "{raw:?}"
            );
        }
        let b = Birthday::parse("1990-01-31", today).ok();
        assert_eq!(
            b.and_then(|b| serde_json::to_string(&b).ok()).as_deref(),
            Some("\"1990-01-31\"")
        );
    }

    #[test]
    fn default_birthday_table() {
        let cases = [
            (date(2025, 6, 15), date(2011, 6, 15)),
            (date(2024, 2, 29), date(2010, 2, 28)), // 2010 is not a leap year
            (date(2028, 2, 29), date(2014, 2, 28)),
            (date(2026, 2, 28), date(2012, 2, 28)),
            (date(2026, 3, 1), date(2012, 3, 1)),
            (date(2025, 1, 1), date(2011, 1, 1)),
            (date(2025, 12, 31), date(2011, 12, 31)),
            (date(1920, 5, 5), date(1910, 1, 1)), // clamped to the minimum
        ];
        for (today, want) in cases {
            assert_eq!(default_birthday(today), want, "{today}");
        }
    }

    #[test]
    fn password_table() {
        let cases = [
            ("abc12345", Ok(())),
            ("Pizza2024!", Ok(())),
            ("a1a1a1a1a1a1a1a1a1a1", Ok(())), // 20
            ("a1a1a1a1a1a1a1a1a1a1a", Err(PasswordLength)),
            ("abc1234", Err(PasswordLength)),
            ("abcdefgh", Err(PasswordWeak)),
            ("12345678", Err(PasswordWeak)),
            ("!@#$%^&*", Err(PasswordWeak)),
            ("abc 12345", Err(PasswordSpace)),
            (" abc12345", Err(PasswordSpace)),
            ("abc12345\t", Err(PasswordSpace)),
            ("密码abc12345", Err(PasswordChars)),
            ("ａｂｃ12345", Err(PasswordChars)),
            ("", Err(PasswordEmpty)),
        ];
        for (raw, want) in cases {
            assert_eq!(Password::parse(raw).map(|_| ()), want, "{raw:?}");
        }
        let p = Password::parse("Secret123");
        assert_eq!(format!("{p:?}"), "Ok(***)");
        assert_eq!(p.as_ref().map(Password::expose), Ok("Secret123"));
    }

    #[test]
    fn sms_code_table() {
        let cases = [
            ("123456", Ok("123456")),
            (" 123456 ", Ok("123456")),
            ("123 456", Ok("123456")),
            ("000000", Ok("000000")),
            ("12345", Err(SmsCodeFormat)),
            ("1234567", Err(SmsCodeFormat)),
            ("12345a", Err(SmsCodeFormat)),
            ("１２３４５６", Err(SmsCodeFormat)),
            ("", Err(SmsCodeEmpty)),
            ("  ", Err(SmsCodeEmpty)),
        ];
        for (raw, want) in cases {
            let got = SmsCode::parse(raw);
            assert_eq!(
                got.as_ref().map(SmsCode::expose),
                want.as_ref().copied(),
                "{raw:?}"
            );
        }
        assert_eq!(format!("{:?}", SmsCode::parse("123456")), "Ok(******)");
    }

    #[test]
    fn messages() {
        let cases = [
            (NameTooLong, Lang::En, "Name cannot exceed 15 characters"),
            (NameIllegal, Lang::Zh, "不能包含、|'等字符"),
            (NameInvisible, Lang::Zh, "姓名不能包含控制字符或不可见字符"),
            (
                NameInvisible,
                Lang::En,
                "Name cannot contain control or invisible characters",
            ),
            (EmailFormat, Lang::En, "Email format error"),
            (SmsCodeEmpty, Lang::En, "Please enter the verification code"),
            (BirthdayTooEarly, Lang::Zh, "生日不能早于1910-01-01"),
            (PasswordEmpty, Lang::Zh, "密码不能为空"),
        ];
        for (e, lang, want) in cases {
            assert_eq!(e.message(lang), want);
        }
    }
}
