//! A comment on an order (spec ordering §2 after the order): a rating of 1 to 5 and up to 200
//! characters of text the store's staff read, once per order, once it is completed.

use crate::domain::accounts::validators::strip_hidden;
use crate::domain::lang::Lang;
use crate::domain::ordering::order_machine::state;

pub const COMMENT_MAX_CHARS: usize = 200;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CommentRefusal {
    NotCompleted,
    Rating,
    TooLong,
    AlreadyRated,
}

impl CommentRefusal {
    pub fn message(&self, lang: Lang) -> String {
        let (zh, en) = match self {
            CommentRefusal::NotCompleted => {
                ("订单完成后才能评价", "Only a completed order can be rated")
            }
            CommentRefusal::Rating => ("评分需在1到5之间", "The rating is from 1 to 5"),
            CommentRefusal::TooLong => ("评价最多200个字", "A comment has at most 200 characters"),
            CommentRefusal::AlreadyRated => ("该订单已评价", "This order has been rated already"),
        };
        match lang {
            Lang::Zh => zh.into(),
            Lang::En => en.into(),
        }
    }

    /// A refusal about the order's state (409 on the wire), as against the comment's own
    /// fields (400).
    pub fn is_conflict(&self) -> bool {
        matches!(
            self,
            CommentRefusal::NotCompleted | CommentRefusal::AlreadyRated
        )
    }
}

/// A comment as kept: [`Comment::parse`] is the only way to build one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Comment {
    pub rating: u8,
    /// Trimmed, hidden characters gone (staff read it, as a remark).
    pub text: String,
}

impl Comment {
    /// A comment on an order in `order_state`: completed orders only; the rating 1 to 5; the
    /// text at most 200 characters once cleaned.
    pub fn parse(order_state: u8, rating: u8, text: &str) -> Result<Comment, CommentRefusal> {
        if order_state != state::COMPLETED {
            return Err(CommentRefusal::NotCompleted);
        }
        if !(1..=5).contains(&rating) {
            return Err(CommentRefusal::Rating);
        }
        let text = strip_hidden(text.trim()).trim().to_string();
        if text.chars().count() > COMMENT_MAX_CHARS {
            return Err(CommentRefusal::TooLong);
        }
        Ok(Comment { rating, text })
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn comments_case_by_case() {
        let long = "好".repeat(201);
        let just = "好".repeat(200);
        // (order state, rating, text, outcome)
        let cases: [(u8, u8, &str, Result<&str, CommentRefusal>); 9] = [
            (state::COMPLETED, 5, "很好吃", Ok("很好吃")),
            (state::COMPLETED, 1, "  慢了  ", Ok("慢了")),
            (state::COMPLETED, 3, "", Ok("")),
            (state::COMPLETED, 4, "a\u{200b}b", Ok("ab")),
            (state::COMPLETED, 0, "x", Err(CommentRefusal::Rating)),
            (state::COMPLETED, 6, "x", Err(CommentRefusal::Rating)),
            (state::COMPLETED, 5, &long, Err(CommentRefusal::TooLong)),
            (state::COMPLETED, 5, &just, Ok(&just)),
            (state::UNPAID, 5, "x", Err(CommentRefusal::NotCompleted)),
        ];
        for (order_state, rating, text, want) in cases {
            let got = Comment::parse(order_state, rating, text);
            assert_eq!(
                got.as_ref().map(|c| c.text.as_str()).map_err(|e| *e),
                want,
                "{rating} {text:?}"
            );
        }
    }

    #[test]
    fn refusals_read_in_both_languages() {
        use CommentRefusal::*;
        for r in [NotCompleted, Rating, TooLong, AlreadyRated] {
            assert!(r.message(Lang::Zh).chars().any(|c| c as u32 >= 0x4e00));
            assert!(r.message(Lang::En).is_ascii());
        }
        assert!(NotCompleted.is_conflict() && AlreadyRated.is_conflict());
        assert!(!Rating.is_conflict() && !TooLong.is_conflict());
    }
}
