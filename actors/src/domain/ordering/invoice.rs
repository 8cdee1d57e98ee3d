//! The invoice a customer asks for at checkout (spec ordering §3 `isNeedInvoice`): a title, a
//! tax number for a company, and the address the e-invoice is mailed to. Parsed once at the
//! edge; the order keeps the parsed values in its doc (`invoice`), which the order detail and
//! the tablet read back.

use crate::domain::accounts::profile::{Email, ProfileError};
use crate::domain::accounts::validators::is_hidden_char;
use crate::domain::lang::Lang;
use serde::Serialize;

pub const TITLE_MAX_CHARS: usize = 100;
/// Chinese tax numbers: the old taxpayer numbers (15 or 20) and the unified social credit
/// code (18), which replaced them but still coexists with them on older invoices.
pub const TAX_NO_LENGTHS: [usize; 3] = [15, 18, 20];

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum InvoiceKind {
    Personal,
    Company,
}

impl InvoiceKind {
    pub fn parse(raw: &str) -> Option<InvoiceKind> {
        match raw {
            "personal" => Some(InvoiceKind::Personal),
            "company" => Some(InvoiceKind::Company),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InvoiceError {
    Missing,
    KindInvalid,
    TitleEmpty,
    TitleTooLong,
    TitleInvisible,
    TaxNoRequired,
    TaxNoFormat,
    EmailEmpty,
    EmailTooLong,
    EmailFormat,
}

impl InvoiceError {
    pub fn message(&self, lang: Lang) -> String {
        use InvoiceError::*;
        let (zh, en) = match self {
            Missing => ("请填写发票信息", "Please fill in the invoice details"),
            KindInvalid => (
                "请选择发票抬头类型（个人或单位）",
                "Invoice type must be personal or company",
            ),
            TitleEmpty => ("请填写发票抬头", "Please enter the invoice title"),
            TitleTooLong => (
                "发票抬头最多100个字",
                "The invoice title can be at most 100 characters",
            ),
            TitleInvisible => (
                "发票抬头不能包含控制字符或不可见字符",
                "The invoice title cannot contain control or invisible characters",
            ),
            TaxNoRequired => (
                "单位发票请填写税号",
                "Please enter the tax number for a company invoice",
            ),
            TaxNoFormat => (
                "税号须为15、18或20位数字或大写字母",
                "The tax number must be 15, 18 or 20 digits or capital letters",
            ),
            EmailEmpty => (
                "请填写接收电子发票的邮箱",
                "Please enter the email the e-invoice is sent to",
            ),
            EmailTooLong => (
                "发票邮箱不能超过64个字符",
                "The invoice email cannot exceed 64 characters",
            ),
            EmailFormat => ("发票邮箱格式错误", "The invoice email is not valid"),
        };
        match lang {
            Lang::Zh => zh.into(),
            Lang::En => en.into(),
        }
    }
}

/// A tax number: 15, 18 or 20 ASCII digits or capital letters. Spaces a customer copies with
/// it are dropped and lower-case letters raised, since printed codes are read back that way.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct TaxNo(String);

impl TaxNo {
    pub fn parse(raw: &str) -> Result<TaxNo, InvoiceError> {
        let code: String = raw
            .chars()
            .filter(|c| *c != ' ')
            .map(|c| c.to_ascii_uppercase())
            .collect();
        let chars_ok = code
            .bytes()
            .all(|b| b.is_ascii_digit() || b.is_ascii_uppercase());
        if chars_ok && code.is_ascii() && TAX_NO_LENGTHS.contains(&code.len()) {
            Ok(TaxNo(code))
        } else {
            Err(InvoiceError::TaxNoFormat)
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// The request as typed; [`Invoice::parse`] turns it into the checked value.
#[derive(Debug, Clone, Copy, Default)]
pub struct InvoiceInput<'a> {
    pub kind: &'a str,
    pub title: &'a str,
    pub tax_no: Option<&'a str>,
    pub email: &'a str,
}

/// What the order keeps (serialised as its doc's `invoice`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Invoice {
    pub kind: InvoiceKind,
    pub title: String,
    pub tax_no: Option<TaxNo>,
    pub email: Email,
}

impl Invoice {
    /// Checks in the order the form shows the fields, so the first error names the first
    /// field to fix. A personal title may carry a tax number; when it does, it must be valid.
    pub fn parse(input: InvoiceInput<'_>) -> Result<Invoice, InvoiceError> {
        let kind = InvoiceKind::parse(input.kind).ok_or(InvoiceError::KindInvalid)?;
        let title = input.title.trim();
        if title.chars().any(is_hidden_char) {
            return Err(InvoiceError::TitleInvisible);
        }
        if title.is_empty() {
            return Err(InvoiceError::TitleEmpty);
        }
        if title.chars().count() > TITLE_MAX_CHARS {
            return Err(InvoiceError::TitleTooLong);
        }
        let tax_no = match input.tax_no.map(str::trim).filter(|t| !t.is_empty()) {
            Some(raw) => Some(TaxNo::parse(raw)?),
            None if kind == InvoiceKind::Company => return Err(InvoiceError::TaxNoRequired),
            None => None,
        };
        let email = Email::parse(input.email).map_err(|e| match e {
            ProfileError::EmailEmpty => InvoiceError::EmailEmpty,
            ProfileError::EmailTooLong => InvoiceError::EmailTooLong,
            _ => InvoiceError::EmailFormat,
        })?;
        Ok(Invoice {
            kind,
            title: title.to_owned(),
            tax_no,
            email,
        })
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    const CODE: &str = "91310000MA1FL8XQ3K";

    fn input<'a>(
        kind: &'a str,
        title: &'a str,
        tax: Option<&'a str>,
        email: &'a str,
    ) -> InvoiceInput<'a> {
        InvoiceInput {
            kind,
            title,
            tax_no: tax,
            email,
        }
    }

    #[test]
    fn the_rules_of_each_field() {
        let long = "票".repeat(101);
        let max = "票".repeat(100);
        use InvoiceError::*;
        let cases: [(InvoiceInput, Result<(), InvoiceError>); 20] = [
            (
                input("company", "上海某某科技有限公司", Some(CODE), "a@b.cn"),
                Ok(()),
            ),
            (input("personal", "张三", None, "a@b.cn"), Ok(())),
            (input("personal", "张三", Some(""), "a@b.cn"), Ok(())),
            (input("personal", "张三", Some(CODE), "a@b.cn"), Ok(())),
            (input("personal", &max, None, "a@b.cn"), Ok(())),
            (
                input("company", "X", Some("123456789012345"), "a@b.cn"),
                Ok(()),
            ),
            (
                input("company", "X", Some("12345678901234567890"), "a@b.cn"),
                Ok(()),
            ),
            (input("", "张三", None, "a@b.cn"), Err(KindInvalid)),
            (input("Company", "张三", None, "a@b.cn"), Err(KindInvalid)),
            (input("personal", "  ", None, "a@b.cn"), Err(TitleEmpty)),
            (input("personal", &long, None, "a@b.cn"), Err(TitleTooLong)),
            (
                input("personal", "张\u{200B}三", None, "a@b.cn"),
                Err(TitleInvisible),
            ),
            (
                input("personal", "张\u{202E}三", None, "a@b.cn"),
                Err(TitleInvisible),
            ),
            (input("company", "X", None, "a@b.cn"), Err(TaxNoRequired)),
            (
                input("company", "X", Some("  "), "a@b.cn"),
                Err(TaxNoRequired),
            ),
            (
                input("company", "X", Some("1234567890123456"), "a@b.cn"),
                Err(TaxNoFormat),
            ),
            (
                input("company", "X", Some("91310000MA1FL8XQ3-"), "a@b.cn"),
                Err(TaxNoFormat),
            ),
            (
                input("personal", "张三", Some("123"), "a@b.cn"),
                Err(TaxNoFormat),
            ),
            (input("personal", "张三", None, ""), Err(EmailEmpty)),
            (input("personal", "张三", None, "a@b"), Err(EmailFormat)),
        ];
        for (given, want) in cases {
            assert_eq!(Invoice::parse(given).map(|_| ()), want, "{given:?}");
        }
    }

    #[test]
    fn tax_numbers_are_normalised_once() {
        let cases = [
            ("91310000ma1fl8xq3k", Ok(CODE)),
            ("9131 0000 MA1F L8XQ 3K", Ok(CODE)),
            ("９1310000MA1FL8XQ3K", Err(InvoiceError::TaxNoFormat)),
            ("91310000MA1FL8XQ3K1", Err(InvoiceError::TaxNoFormat)),
        ];
        for (raw, want) in cases {
            let got = TaxNo::parse(raw);
            assert_eq!(
                got.as_ref().map(TaxNo::as_str),
                want.as_ref().map(|s| *s),
                "{raw}"
            );
        }
    }

    #[test]
    fn the_order_keeps_the_trimmed_values() {
        let invoice =
            Invoice::parse(input("company", " 某某公司 ", Some(CODE), " x@y.com ")).unwrap();
        assert_eq!(
            serde_json::to_value(&invoice).unwrap(),
            serde_json::json!({"kind": "company", "title": "某某公司", "taxNo": CODE, "email": "x@y.com"})
        );
    }

    #[test]
    fn every_error_reads_in_both_languages() {
        use InvoiceError::*;
        for e in [
            Missing,
            KindInvalid,
            TitleEmpty,
            TitleTooLong,
            TitleInvisible,
            TaxNoRequired,
            TaxNoFormat,
            EmailEmpty,
            EmailTooLong,
            EmailFormat,
        ] {
            assert!(e.message(Lang::Zh).chars().any(|c| c > '\u{2E80}'), "{e:?}");
            assert!(e.message(Lang::En).is_ascii(), "{e:?}");
        }
    }
}
