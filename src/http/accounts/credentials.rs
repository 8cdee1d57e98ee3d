//! The account inputs of the auth endpoints parsed into domain types, each failure a field
//! error (the forms show them under their inputs), and the account services' errors mapped
//! to the error catalogue.

use crate::http::accounts::dto::Secret;
use crate::http::edge::error::{ApiError, FieldError, Msg};
use actors::accounts::passwords::{PasswordError, ThrottleError};
use actors::accounts::sms_codes::{CheckError, SendError};
use actors::domain::accounts::phone::Phone;
use actors::domain::accounts::profile::{Password, ProfileError, SmsCode};
use actors::domain::accounts::{seconds_ceil, Scene};
use actors::domain::lang::Lang;

/// Longest password text looked at on login; anything longer is wrong anyway.
const LOGIN_PASSWORD_MAX: usize = 128;

/// The failed fields of a form, in form order (the Nones are the fields that parsed).
pub fn invalid<const N: usize>(errors: [Option<FieldError>; N]) -> ApiError {
    ApiError::Invalid(errors.into_iter().flatten().collect())
}

/// A message from a domain error's `message(lang)`.
pub fn msg(message: impl Fn(Lang) -> String) -> Msg {
    Msg::new(message(Lang::Zh), message(Lang::En))
}

pub fn field(field: &'static str, message: impl Fn(Lang) -> String) -> FieldError {
    FieldError {
        field,
        msg: msg(message),
    }
}

fn profile_error(name: &'static str, e: ProfileError) -> FieldError {
    field(name, |l| e.message(l))
}

pub fn phone(raw: Option<&str>) -> Result<Phone, FieldError> {
    Phone::parse(raw.unwrap_or_default()).map_err(|e| field("cellPhone", |l| e.message(l)))
}

pub fn sms_code(raw: Option<&Secret>) -> Result<SmsCode, FieldError> {
    SmsCode::parse(raw.map(Secret::expose).unwrap_or_default())
        .map_err(|e| profile_error("smsCode", e))
}

/// A password being set: the strength rules apply.
pub fn new_password(name: &'static str, raw: Option<&Secret>) -> Result<Password, FieldError> {
    Password::parse(raw.map(Secret::expose).unwrap_or_default()).map_err(|e| profile_error(name, e))
}

/// A password being checked: only "not empty", since accounts may predate today's rules.
pub fn login_password(name: &'static str, raw: Option<&Secret>) -> Result<String, FieldError> {
    match raw.map(Secret::expose).unwrap_or_default() {
        "" => Err(profile_error(name, ProfileError::PasswordEmpty)),
        text => Ok(text.chars().take(LOGIN_PASSWORD_MAX).collect()),
    }
}

pub fn scene(raw: Option<&str>) -> Result<Scene, FieldError> {
    match raw.map(str::trim) {
        Some("register") => Ok(Scene::Register),
        Some("login") => Ok(Scene::Login),
        Some("reset") => Ok(Scene::Reset),
        _ => Err(field("scene", |l| match l {
            Lang::Zh => "scene 只能是 register、login 或 reset".into(),
            Lang::En => "scene must be register, login or reset".into(),
        })),
    }
}

/// Spec §5: 'please click read and approve agreement' must be ticked.
pub fn privacy_agreed(raw: Option<bool>) -> Result<(), FieldError> {
    if raw == Some(true) {
        Ok(())
    } else {
        Err(field("privacyAgreed", |l| match l {
            Lang::Zh => "请阅读并同意用户协议和隐私政策".into(),
            Lang::En => "Please read and agree to the user agreement and privacy policy".into(),
        }))
    }
}

pub fn send_error(e: SendError) -> ApiError {
    match e {
        SendError::Cooldown { retry_after_ms } => {
            ApiError::too_frequent_for(seconds_ceil(retry_after_ms))
        }
        SendError::PhoneDailyLimit { retry_after_ms } => ApiError::RateLimited {
            msg: Msg::fixed(
                "今日验证码发送次数已达上限，请明天再试",
                "This phone has had too many codes today, please try again tomorrow",
            ),
            retry_after_seconds: seconds_ceil(retry_after_ms),
        },
        SendError::IpHourlyLimit => ApiError::TooFrequent,
        SendError::Gateway(e) => {
            tracing::warn!(error = %e, "sms gateway refused a code");
            ApiError::Unavailable(Msg::fixed(
                "短信发送失败，请稍后再试",
                "The text message could not be sent, please try again later",
            ))
        }
        SendError::Db(e) => e.into(),
    }
}

pub fn check_error(e: CheckError) -> ApiError {
    let only = |f: FieldError| ApiError::Invalid(vec![f]);
    match e {
        CheckError::NoCode => only(field("smsCode", |l| match l {
            Lang::Zh => "验证码已失效，请重新获取".into(),
            Lang::En => "The verification code has expired, please get a new one".into(),
        })),
        CheckError::Wrong { left } => only(field("smsCode", move |l| match l {
            Lang::Zh => format!("验证码错误，还可尝试{left}次"),
            Lang::En => format!("Wrong verification code, {left} tries left"),
        })),
        CheckError::WornOut => only(field("smsCode", |l| match l {
            Lang::Zh => "验证码错误次数过多，请重新获取".into(),
            Lang::En => "Too many wrong codes, please get a new one".into(),
        })),
        CheckError::Db(e) => e.into(),
    }
}

/// How long to wait, as a person says it: seconds under a minute, whole minutes (rounded up)
/// beyond.
pub fn wait_text(seconds: u64) -> (String, String) {
    if seconds < 60 {
        (format!("{seconds}秒"), format!("{seconds} s"))
    } else {
        let minutes = seconds.div_ceil(60);
        let s = if minutes == 1 { "" } else { "s" };
        (format!("{minutes}分钟"), format!("{minutes} minute{s}"))
    }
}

/// A locked password login says when to try again, and that an SMS code works meanwhile.
pub fn throttle_error(e: ThrottleError) -> ApiError {
    match e {
        ThrottleError::Locked { retry_after_ms } => {
            let seconds = seconds_ceil(retry_after_ms);
            let (zh, en) = wait_text(seconds);
            ApiError::RateLimited {
                msg: Msg::new(
                    format!("密码错误次数过多，请{zh}后再试，或使用短信验证码登录"),
                    format!(
                        "Too many wrong passwords, please try again in {en} or log in with an SMS code"
                    ),
                ),
                retry_after_seconds: seconds,
            }
        }
        ThrottleError::Db(e) => e.into(),
    }
}

/// A locked tablet PIN login says when to try again.
pub fn pin_throttle_error(e: ThrottleError) -> ApiError {
    match e {
        ThrottleError::Locked { retry_after_ms } => {
            let seconds = seconds_ceil(retry_after_ms);
            let (zh, en) = wait_text(seconds);
            ApiError::RateLimited {
                msg: Msg::new(
                    format!("PIN错误次数过多，请{zh}后再试"),
                    format!("Too many wrong PINs, please try again in {en}"),
                ),
                retry_after_seconds: seconds,
            }
        }
        ThrottleError::Db(e) => e.into(),
    }
}

pub fn password_error(e: PasswordError) -> ApiError {
    ApiError::internal(e)
}

pub fn wrong_old_password() -> ApiError {
    ApiError::Invalid(vec![field("oldPassword", |l| match l {
        Lang::Zh => "原密码错误".into(),
        Lang::En => "The old password is wrong".into(),
    })])
}

/// Login failures do not say whether the phone has an account.
pub fn wrong_credentials() -> ApiError {
    ApiError::BadInput(Msg::fixed(
        "手机号或密码错误",
        "Wrong phone number or password",
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_field_message_has_both_languages() {
        let errors = [
            phone(None).err(),
            phone(Some("123")).err(),
            sms_code(None).err(),
            new_password("password", None).err(),
            login_password("password", None).err(),
            scene(Some("other")).err(),
            privacy_agreed(Some(false)).err(),
        ];
        for e in errors {
            let e = e.unwrap_or_else(|| panic!("expected an error"));
            assert!(!e.msg.zh.is_empty() && !e.msg.en.is_empty(), "{e:?}");
            assert!(e.msg.zh != e.msg.en, "{e:?}");
        }
        assert_eq!(scene(Some(" reset ")).ok(), Some(Scene::Reset));
        let t = |s: u64| wait_text(s);
        assert_eq!(t(1), ("1秒".into(), "1 s".into()));
        assert_eq!(t(59), ("59秒".into(), "59 s".into()));
        assert_eq!(t(60), ("1分钟".into(), "1 minute".into()));
        assert_eq!(t(61), ("2分钟".into(), "2 minutes".into()));
        assert_eq!(t(600), ("10分钟".into(), "10 minutes".into()));
        assert!(privacy_agreed(Some(true)).is_ok());
    }
}
