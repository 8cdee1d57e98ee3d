//! Sending and checking SMS codes (spec account §7 sendRandomNum, checkMessageCodeNew).
//!
//! Limits (all counted from the stored rows, so every node agrees): one code per phone and
//! scene per minute, 10 per phone per China day, 20 per client address per hour. A code
//! lives 5 minutes, works once, for its scene only, and dies after 5 wrong tries. Only the
//! latest code of a phone and scene works. The code itself is never stored nor logged.

use super::secrets;
use crate::db::sms_codes::{NewCode, SmsCodeRepo};
use crate::db::DbError;
use crate::domain::accounts::phone::Phone;
use crate::domain::accounts::profile::SmsCode;
use crate::domain::accounts::{
    china_day_start, cooldown_left_ms, Scene, DAY_MS, HOUR_MS, SMS_CODE_TTL_MS, SMS_MAX_ATTEMPTS,
    SMS_PER_IP_PER_HOUR, SMS_PER_PHONE_PER_DAY,
};
use crate::domain::lang::Lang;
use crate::providers::sms::{SmsError, SmsProvider};
use std::sync::Arc;

#[derive(Debug, thiserror::Error)]
pub enum SendError {
    #[error("resend too soon")]
    Cooldown { retry_after_ms: i64 },
    #[error("daily limit for this phone reached")]
    PhoneDailyLimit { retry_after_ms: i64 },
    #[error("hourly limit for this client reached")]
    IpHourlyLimit,
    #[error(transparent)]
    Gateway(#[from] SmsError),
    #[error(transparent)]
    Db(#[from] DbError),
}

#[derive(Debug, thiserror::Error)]
pub enum CheckError {
    /// No usable code: never sent, expired, already used, or worn out.
    #[error("no live code")]
    NoCode,
    #[error("wrong code, {left} tries left")]
    Wrong { left: i64 },
    /// This wrong try was the last one; the code is dead.
    #[error("too many wrong tries")]
    WornOut,
    #[error(transparent)]
    Db(#[from] DbError),
}

#[derive(Clone)]
pub struct SmsCodes {
    repo: SmsCodeRepo,
    provider: Arc<dyn SmsProvider>,
}

impl SmsCodes {
    pub fn new(repo: SmsCodeRepo, provider: Arc<dyn SmsProvider>) -> SmsCodes {
        SmsCodes { repo, provider }
    }

    /// Checks the limits, stores the hash, then sends. The row is written before sending so
    /// a slow or failing gateway still counts against the limits (no free retries).
    #[tracing::instrument(skip(self, client_ip))]
    pub async fn send(
        &self,
        phone: &Phone,
        scene: Scene,
        client_ip: &str,
        lang: Lang,
        now: i64,
    ) -> Result<(), SendError> {
        // The limits are read and the code written under the phone's and the client's locks:
        // concurrent requests queue here instead of all counting below the limit.
        let mut tx = self.repo.begin_send(phone, client_ip).await?;
        if let Some(left) = cooldown_left_ms(tx.last_sent_at(phone, scene).await?, now) {
            return Err(SendError::Cooldown {
                retry_after_ms: left,
            });
        }
        let day_start = china_day_start(now);
        if tx.count_for_phone_since(phone, day_start).await? >= SMS_PER_PHONE_PER_DAY {
            return Err(SendError::PhoneDailyLimit {
                retry_after_ms: day_start + DAY_MS - now,
            });
        }
        if tx.count_for_ip_since(client_ip, now - HOUR_MS).await? >= SMS_PER_IP_PER_HOUR {
            return Err(SendError::IpHourlyLimit);
        }
        let code = secrets::sms_code();
        let salt = secrets::salt();
        tx.insert_and_commit(&NewCode {
            phone,
            scene,
            client_ip,
            salt: &salt,
            code_hash: &secrets::code_hash(&salt, &code),
            now,
            expires_at: now + SMS_CODE_TTL_MS,
        })
        .await?;
        self.provider.send(phone, &message(&code, lang)).await?;
        tracing::info!("sms code sent");
        Ok(())
    }

    /// Spends the code when it matches; counts the try when it does not.
    #[tracing::instrument(skip(self, code))]
    pub async fn check(
        &self,
        phone: &Phone,
        scene: Scene,
        code: &SmsCode,
        now: i64,
    ) -> Result<(), CheckError> {
        let live = self
            .repo
            .live(phone, scene, now)
            .await?
            .ok_or(CheckError::NoCode)?;
        if secrets::code_hash(&live.salt, code.expose()) == live.code_hash {
            // Two requests racing with the right code: only one spends it.
            return if self.repo.spend(live.id, now).await? {
                Ok(())
            } else {
                Err(CheckError::NoCode)
            };
        }
        let used = self
            .repo
            .record_wrong(live.id, SMS_MAX_ATTEMPTS, now)
            .await?;
        if used >= SMS_MAX_ATTEMPTS {
            Err(CheckError::WornOut)
        } else {
            Err(CheckError::Wrong {
                left: SMS_MAX_ATTEMPTS - used,
            })
        }
    }
}

fn message(code: &str, lang: Lang) -> String {
    match lang {
        Lang::Zh => format!("您的验证码是{code}，5分钟内有效，请勿告诉他人。"),
        Lang::En => {
            format!("Your verification code is {code}. It is valid for 5 minutes; do not share it.")
        }
    }
}
