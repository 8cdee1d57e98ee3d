//! The two product languages. Chinese is the default; English when the client prefers it.

use crate::domain::catalogue::Bilingual;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    #[default]
    Zh,
    En,
}

impl Lang {
    /// The language of an `Accept-Language` header: the most preferred of the tags we speak
    /// (primary subtag `en` or `zh`, by q-value, then order). Anything else, or no header, is Zh.
    pub fn from_accept_language(header: Option<&str>) -> Lang {
        let Some(header) = header else {
            return Lang::Zh;
        };
        let mut best: Option<(f32, Lang)> = None;
        for part in header.split(',') {
            let mut pieces = part.split(';');
            let tag = pieces.next().unwrap_or("").trim().to_ascii_lowercase();
            let q = pieces
                .filter_map(|p| p.trim().strip_prefix("q="))
                .find_map(|q| q.trim().parse::<f32>().ok())
                .unwrap_or(1.0);
            if q.is_nan() || q <= 0.0 {
                continue;
            }
            let lang = match tag.split(['-', '_']).next() {
                Some("en") => Lang::En,
                Some("zh") => Lang::Zh,
                _ => continue,
            };
            if best.is_none_or(|(best_q, _)| q > best_q) {
                best = Some((q, lang));
            }
        }
        best.map_or(Lang::Zh, |(_, lang)| lang)
    }

    /// The text in this language; English falls back to Chinese when it is missing.
    pub fn pick(self, text: &Bilingual) -> &str {
        match self {
            Lang::En if !text.en.is_empty() => &text.en,
            _ => &text.cn,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Lang::Zh => "zh",
            Lang::En => "en",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accept_language_table() {
        let cases: &[(Option<&str>, Lang)] = &[
            (None, Lang::Zh),
            (Some(""), Lang::Zh),
            (Some("en"), Lang::En),
            (Some("EN"), Lang::En),
            (Some("en-US,en;q=0.9"), Lang::En),
            (Some("en-GB"), Lang::En),
            (Some("zh-CN,zh;q=0.9,en;q=0.8"), Lang::Zh),
            (Some("zh"), Lang::Zh),
            (Some("zh-Hant-TW"), Lang::Zh),
            (Some("fr-FR"), Lang::Zh),
            (Some("*"), Lang::Zh),
            (Some("english"), Lang::Zh),
            (Some("fr-FR,en;q=0.5"), Lang::En),
            (Some("zh;q=0.4, en;q=0.8"), Lang::En),
            (Some("en;q=0"), Lang::Zh),
            (Some("en;q=abc"), Lang::En),
            (Some(" ,;, en-us ; q=1"), Lang::En),
        ];
        for (header, want) in cases {
            assert_eq!(Lang::from_accept_language(*header), *want, "{header:?}");
        }
    }

    #[test]
    fn default_is_chinese() {
        assert_eq!(Lang::default(), Lang::Zh);
    }

    #[test]
    fn pick_falls_back_to_chinese() {
        let both = Bilingual {
            cn: "人民广场".into(),
            en: "People's Square".into(),
        };
        let cn_only = Bilingual {
            cn: "外滩".into(),
            en: String::new(),
        };
        assert_eq!(Lang::Zh.pick(&both), "人民广场");
        assert_eq!(Lang::En.pick(&both), "People's Square");
        assert_eq!(Lang::En.pick(&cn_only), "外滩");
    }

    #[test]
    fn serialises_lowercase() {
        assert_eq!(
            serde_json::to_string(&Lang::En).ok().as_deref(),
            Some("\"en\"")
        );
        assert_eq!(
            serde_json::to_string(&Lang::Zh).ok().as_deref(),
            Some("\"zh\"")
        );
    }
}
