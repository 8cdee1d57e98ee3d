use super::*;

const NOW: i64 = 1_795_406_400_000;
const LIFETIME: i64 = 30 * 60_000;
const AMOUNT: Fen = Fen(12_800);

fn attempt(
    id: &'static str,
    method: &'static str,
    state: PaymentState,
    age_ms: i64,
) -> Existing<'static> {
    Existing {
        payment_id: id,
        method,
        state,
        amount: AMOUNT,
        created_at: NOW - age_ms,
        expires_at: NOW - age_ms + LIFETIME,
    }
}

fn request(method: &str) -> Request<'_> {
    Request {
        method,
        amount: AMOUNT,
        now: NOW,
    }
}

const LIMITS: AttemptLimits = AttemptLimits {
    per_order: 3,
    per_user_minute: 2,
};

#[test]
fn an_open_attempt_of_the_same_method_is_handed_out_again() {
    use PaymentState::*;
    let minute = 60_000;
    let cases: Vec<(
        &str,
        Vec<Existing<'static>>,
        Result<Admission<'static>, AttemptRefusal>,
    )> = vec![
        ("nothing yet", vec![], Ok(Admission::Open)),
        (
            "pending, same method",
            vec![attempt("P1", "alipay_wap", Pending, minute)],
            Ok(Admission::Reuse("P1")),
        ),
        (
            "pending, another method: a new one",
            vec![attempt("P1", "wechat_h5", Pending, minute)],
            Ok(Admission::Open),
        ),
        (
            "the newest of two pending",
            vec![
                attempt("P1", "alipay_wap", Pending, 3 * minute),
                attempt("P2", "alipay_wap", Pending, minute),
            ],
            Ok(Admission::Reuse("P2")),
        ),
        (
            "pending with exactly five minutes left",
            vec![attempt(
                "P1",
                "alipay_wap",
                Pending,
                LIFETIME - REUSE_MIN_LEFT_MS,
            )],
            Ok(Admission::Reuse("P1")),
        ),
        (
            "pending with less than five minutes left: a new one",
            vec![attempt(
                "P1",
                "alipay_wap",
                Pending,
                LIFETIME - REUSE_MIN_LEFT_MS + 1,
            )],
            Ok(Admission::Open),
        ),
        (
            "failed at the cashier: a new one",
            vec![attempt("P1", "alipay_wap", Failed, minute)],
            Ok(Admission::Open),
        ),
        (
            "closed: a new one",
            vec![attempt("P1", "alipay_wap", Closed, minute)],
            Ok(Admission::Open),
        ),
        (
            "being opened by another request: wait for it",
            vec![attempt("P1", "alipay_wap", Created, 1_000)],
            Ok(Admission::InFlight("P1")),
        ),
        (
            "created long ago (its node went away): not waited for",
            vec![attempt("P1", "alipay_wap", Created, IN_FLIGHT_MS)],
            Ok(Admission::Open),
        ),
        (
            "a pending one wins over one being opened",
            vec![
                attempt("P1", "alipay_wap", Pending, minute),
                attempt("P2", "alipay_wap", Created, 1_000),
            ],
            Ok(Admission::Reuse("P1")),
        ),
        (
            "at the order's ceiling",
            vec![
                attempt("P1", "alipay_wap", Failed, 3 * minute),
                attempt("P2", "alipay_wap", Failed, 2 * minute),
                attempt("P3", "wechat_h5", Closed, minute),
            ],
            Err(AttemptRefusal::OrderCeiling { max: 3 }),
        ),
        (
            "at the order's ceiling, an open one is still handed out",
            vec![
                attempt("P1", "alipay_wap", Failed, 3 * minute),
                attempt("P2", "wechat_h5", Failed, 2 * minute),
                attempt("P3", "alipay_wap", Pending, minute),
            ],
            Ok(Admission::Reuse("P3")),
        ),
    ];
    for (case, existing, want) in cases {
        assert_eq!(
            admit(&existing, &[], request("alipay_wap"), LIMITS),
            want,
            "{case}"
        );
    }
}

#[test]
fn another_amount_is_another_attempt() {
    let existing = [Existing {
        amount: Fen(100),
        ..attempt("P1", "alipay_wap", PaymentState::Pending, 60_000)
    }];
    assert_eq!(
        admit(&existing, &[], request("alipay_wap"), LIMITS),
        Ok(Admission::Open)
    );
}

#[test]
fn a_user_opens_at_most_their_minutes_worth() {
    let cases: Vec<(&str, Vec<i64>, Result<Admission<'static>, AttemptRefusal>)> = vec![
        ("none", vec![], Ok(Admission::Open)),
        ("one", vec![NOW - 10_000], Ok(Admission::Open)),
        (
            "two: the older leaves the window in 50 s",
            vec![NOW - 10_000, NOW - 5_000],
            Err(AttemptRefusal::TooFrequent {
                retry_after_seconds: 50,
            }),
        ),
        (
            "a part second rounds up",
            vec![NOW - 10_500, NOW - 5_000],
            Err(AttemptRefusal::TooFrequent {
                retry_after_seconds: 50,
            }),
        ),
        (
            "exactly a minute old has left",
            vec![NOW - USER_WINDOW_MS, NOW - 5_000],
            Ok(Admission::Open),
        ),
        (
            "three (two nodes raced before): a place comes free when the second oldest leaves",
            vec![NOW - 50_000, NOW - 30_000, NOW - 1_000],
            Err(AttemptRefusal::TooFrequent {
                retry_after_seconds: 30,
            }),
        ),
        (
            "at the last millisecond: one second, never zero",
            vec![NOW - USER_WINDOW_MS + 1, NOW - 1_000],
            Err(AttemptRefusal::TooFrequent {
                retry_after_seconds: 1,
            }),
        ),
    ];
    for (case, recent, want) in cases {
        assert_eq!(
            admit(&[], &recent, request("alipay_wap"), LIMITS),
            want,
            "{case}"
        );
    }
}

#[test]
fn a_reused_attempt_is_not_counted_against_the_minute() {
    let existing = [attempt("P1", "alipay_wap", PaymentState::Pending, 1_000)];
    let recent = [NOW - 2_000, NOW - 1_000];
    assert_eq!(
        admit(&existing, &recent, request("alipay_wap"), LIMITS),
        Ok(Admission::Reuse("P1"))
    );
}

#[test]
fn a_ceiling_of_zero_still_lets_one_attempt_through() {
    let none = AttemptLimits {
        per_order: 0,
        per_user_minute: 0,
    };
    assert_eq!(
        admit(&[], &[], request("alipay_wap"), none),
        Ok(Admission::Open)
    );
    let one = [attempt("P1", "alipay_wap", PaymentState::Failed, 1_000)];
    assert_eq!(
        admit(&one, &[], request("alipay_wap"), none),
        Err(AttemptRefusal::OrderCeiling { max: 1 })
    );
}

#[test]
fn refusals_say_why_in_both_languages() {
    let ceiling = AttemptRefusal::OrderCeiling { max: 10 };
    assert_eq!(
        ceiling.message(Lang::Zh),
        "该订单支付次数已达上限（10次），请重新下单"
    );
    assert_eq!(
        ceiling.message(Lang::En),
        "This order has reached its limit of 10 payment attempts; please place the order again"
    );
    let wait = AttemptRefusal::TooFrequent {
        retry_after_seconds: 42,
    };
    assert_eq!(wait.message(Lang::Zh), "支付尝试过于频繁，请42秒后再试");
    assert_eq!(
        wait.message(Lang::En),
        "Too many payment attempts; please try again in 42 s"
    );
}
