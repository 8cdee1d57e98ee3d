//! JSON shapes of the account endpoints. Secrets (passwords, SMS codes) arrive as [`Secret`],
//! whose Debug prints "***", so no request type can leak one into a log line.

use actors::db::users::UserRow;
use actors::domain::accounts::phone::{null_if_placeholder, Phone};
use actors::domain::accounts::{user_kind, visible_points, UserKind};
use serde::{Deserialize, Serialize};
use std::fmt;
use utoipa::ToSchema;

/// A password or code as sent. Only `expose` reads it.
#[derive(Clone, Default, Deserialize)]
#[serde(transparent)]
pub struct Secret(String);

impl Secret {
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("***")
    }
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SendCodeRequest {
    #[schema(example = "13812345678")]
    pub cell_phone: Option<String>,
    /// register, login or reset.
    #[schema(example = "login", value_type = Option<actors::domain::accounts::Scene>)]
    pub scene: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SentCode {
    pub expires_in_seconds: u64,
    pub resend_after_seconds: u64,
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RegisterRequest {
    pub cell_phone: Option<String>,
    #[schema(value_type = String, example = "123456")]
    pub sms_code: Option<Secret>,
    /// 8–20 characters, letters and digits both.
    #[schema(value_type = String, format = Password)]
    pub password: Option<Secret>,
    /// Must be true: the user ticked the privacy policy.
    pub privacy_agreed: Option<bool>,
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LoginRequest {
    pub cell_phone: Option<String>,
    #[schema(value_type = String, format = Password)]
    pub password: Option<Secret>,
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SmsLoginRequest {
    pub cell_phone: Option<String>,
    #[schema(value_type = String, example = "123456")]
    pub sms_code: Option<Secret>,
    /// Required (true) when the phone has no account yet: it is registered on the fly.
    pub privacy_agreed: Option<bool>,
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ResetPasswordRequest {
    pub cell_phone: Option<String>,
    #[schema(value_type = String, example = "123456")]
    pub sms_code: Option<Secret>,
    #[schema(value_type = String, format = Password)]
    pub password: Option<Secret>,
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ChangePasswordRequest {
    /// Required when the account has a password (accounts made by SMS login have none).
    #[schema(value_type = String, format = Password)]
    pub old_password: Option<Secret>,
    #[schema(value_type = String, format = Password)]
    pub new_password: Option<Secret>,
}

/// A successful login or registration.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LoginReply {
    /// Send as `Authorization: Bearer <token>`.
    pub token: String,
    /// Epoch ms; pushed forward as the session is used.
    pub expires_at: i64,
    /// True when this call created the account.
    pub new_user: bool,
    pub user: MeDto,
}

/// The member detail (memberDetail). The phone is shown masked only.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MeDto {
    pub id: i64,
    pub user_key: String,
    /// Masked: "138****5678"; null for no phone or an old placeholder number.
    pub cell_phone: Option<String>,
    pub name: Option<String>,
    pub email: Option<String>,
    /// 0 unknown, 1 male, 2 female.
    pub gender: i64,
    /// "YYYY-MM-DD".
    pub birthday: Option<String>,
    /// Where the birthday picker opens: 14 years ago (spec §5).
    pub default_birthday: String,
    /// guest, authorised or member (spec §1).
    #[schema(value_type = String)]
    pub user_kind: UserKind,
    pub is_loyalty: bool,
    pub loyalty_level: Option<i64>,
    pub anonymous_flag: i64,
    /// Points; zero for non-members.
    pub userful_point: i64,
    /// The default address.
    pub address_id: Option<i64>,
    /// The personalised-recommendation switch.
    pub personalized_show_tag: bool,
    pub is_personalized_agree: bool,
    pub is_remind_again: bool,
    pub has_password: bool,
    /// The privacy policy changed since the user agreed (or they never did, or refused):
    /// the app asks again.
    pub consent_required: bool,
    pub created_at: i64,
}

impl MeDto {
    pub fn new(
        user: &UserRow,
        address_id: Option<i64>,
        consent_required: bool,
        default_birthday: String,
    ) -> MeDto {
        MeDto {
            id: user.id,
            user_key: user.user_key.clone(),
            cell_phone: masked_phone(user.phone.as_deref()),
            name: user.name.clone(),
            email: user.email.clone(),
            gender: user.gender,
            birthday: user.birthday.clone(),
            default_birthday,
            user_kind: user_kind(user.is_loyalty, user.anonymous_flag),
            is_loyalty: user.is_loyalty,
            loyalty_level: user.loyalty_level.filter(|_| user.is_loyalty),
            anonymous_flag: user.anonymous_flag,
            userful_point: visible_points(user.is_loyalty, user.points),
            address_id,
            personalized_show_tag: user.recommendation,
            is_personalized_agree: user.personalized_agree,
            is_remind_again: user.remind_again,
            has_password: user.password_hash.is_some(),
            consent_required,
            created_at: user.created_at,
        }
    }
}

/// Placeholder numbers (containing 10000000) are no number; the rest shown masked.
pub fn masked_phone(stored: Option<&str>) -> Option<String> {
    stored
        .and_then(null_if_placeholder)
        .and_then(|raw| Phone::parse(raw).ok())
        .map(|p| p.masked())
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProfilePatch {
    /// At most 15 characters.
    pub name: Option<String>,
    pub email: Option<String>,
    /// 0 unknown, 1 male, 2 female.
    pub gender: Option<i64>,
    /// "YYYY-MM-DD", from 1910-01-01 to today.
    pub birthday: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PrivacyDto {
    /// The policy in force: its update time, which is also its version.
    pub policy_updated_at: i64,
    pub agreed_at: Option<i64>,
    pub agreed_version: Option<i64>,
    /// The latest decision is an agreement to the policy in force.
    pub current: bool,
    pub refused_at: Option<i64>,
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PrivacyDecisionRequest {
    /// "agree" or "refuse".
    pub decision: Option<String>,
}

#[derive(Debug, Default, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MarketingSettings {
    /// Agreed to SMS marketing notifications; absent keeps the current value.
    pub is_personalized_agree: Option<bool>,
    /// "Don't remind me again" on the notification dialog; absent keeps the current value.
    pub is_remind_again: Option<bool>,
}

/// Both marketing settings as they now stand (the answer to a change of either).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MarketingState {
    pub is_personalized_agree: bool,
    pub is_remind_again: bool,
}

#[derive(Debug, Default, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RecommendationSwitch {
    /// 1 on, 0 off.
    pub flag: Option<i64>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_never_print() {
        let login: LoginRequest =
            serde_json::from_str(r#"{"cellPhone":"13812345678","password":"Secret123"}"#)
                .unwrap_or_default();
        let register: RegisterRequest = serde_json::from_str(
            r#"{"cellPhone":"13812345678","smsCode":"654321","password":"Secret123","privacyAgreed":true}"#,
        )
        .unwrap_or_default();
        let change: ChangePasswordRequest =
            serde_json::from_str(r#"{"oldPassword":"Secret123","newPassword":"Other4567"}"#)
                .unwrap_or_default();
        let printed = format!("{login:?} {register:?} {change:?}");
        for secret in ["Secret123", "654321", "Other4567"] {
            assert!(!printed.contains(secret), "{printed}");
        }
        assert_eq!(
            login.password.as_ref().map(Secret::expose),
            Some("Secret123")
        );
    }

    #[test]
    fn phones_show_masked_or_not_at_all() {
        let cases = [
            (Some("13812345678"), Some("138****5678")),
            (Some("13810000000"), None),
            (Some("021-63212345"), None),
            (None, None),
        ];
        for (stored, want) in cases {
            assert_eq!(masked_phone(stored).as_deref(), want, "{stored:?}");
        }
    }
}
