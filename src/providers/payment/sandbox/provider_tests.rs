//! Create, query, refund and the notify's verification, against the ledger.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::super::tests::{request, sandbox, HALF_HOUR, NOW};
use super::super::{CashierState, SettleError};
use super::*;
use actors::clock::Clock;
use actors::providers::payment::{encode_form, sign_params, PayMethod};

#[actix_web::test]
async fn create_answers_the_instructions_of_each_method() {
    let clock = Clock::manual(NOW);
    let pay = sandbox(&clock).await;
    let cashier = |id: &str| format!("http://pay.test/sandbox/cashier/{id}");
    for (i, method) in PayMethod::ALL.into_iter().enumerate() {
        let id = format!("p{i}");
        let got = pay
            .create(&request(&id, method, "http://127.0.0.1:1/n"))
            .await;
        if method == PayMethod::Offline {
            assert!(matches!(got, Err(PaymentError::Rejected { .. })), "{got:?}");
            continue;
        }
        let ins = got.unwrap();
        assert_eq!(ins.method, method);
        assert_eq!(ins.provider_trade_no.len(), 19, "{}", ins.provider_trade_no);
        assert!(ins.provider_trade_no.bytes().all(|b| b.is_ascii_digit()));
        let set = [
            ins.html.is_some(),
            ins.url.is_some(),
            ins.pay_info.is_some(),
            ins.sign_info.is_some(),
            ins.tn.is_some(),
            ins.union_pay_paras.is_some(),
        ];
        let want = match method {
            PayMethod::AlipayWap => [true, false, false, false, false, false],
            PayMethod::AlipayApp | PayMethod::WechatApp => {
                [false, false, true, false, false, false]
            }
            PayMethod::WechatH5 | PayMethod::Ccb | PayMethod::Bbc => {
                [false, true, false, false, false, false]
            }
            PayMethod::WechatJsapi => [false, true, false, true, false, false],
            PayMethod::UnionpayApp => [false, false, false, false, true, false],
            PayMethod::UnionpayWeb => [false, false, false, false, false, true],
            PayMethod::Offline => unreachable!(),
        };
        assert_eq!(set, want, "{method}");
        match method {
            PayMethod::AlipayWap => {
                let html = ins.html.unwrap();
                assert!(
                    html.contains(&format!("action=\"{}\"", cashier(&id))),
                    "{html}"
                );
                assert!(html.contains("method=\"get\""));
                assert!(html.contains(".submit()"));
            }
            PayMethod::AlipayApp => {
                let info = parse_form(ins.pay_info.unwrap().as_bytes()).unwrap();
                assert!(verify_params(b"test-secret-of-the-sandbox", &info));
                assert_eq!(param(&info, "out_trade_no"), Some(id.as_str()));
                assert_eq!(param(&info, "total_amount"), Some("89.90"));
                assert_eq!(param(&info, "cashier_url"), Some(cashier(&id).as_str()));
            }
            PayMethod::WechatApp | PayMethod::WechatJsapi => {
                let text = ins.pay_info.or(ins.sign_info).unwrap();
                let json: serde_json::Value = serde_json::from_str(&text).unwrap();
                let pairs: Vec<(String, String)> = json
                    .as_object()
                    .unwrap()
                    .iter()
                    .map(|(k, v)| (k.clone(), v.as_str().unwrap().to_owned()))
                    .collect();
                assert!(
                    verify_params(b"test-secret-of-the-sandbox", &pairs),
                    "{text}"
                );
            }
            PayMethod::UnionpayApp => {
                assert_eq!(ins.tn.as_deref(), Some(ins.provider_trade_no.as_str()))
            }
            PayMethod::UnionpayWeb => {
                let paras = ins.union_pay_paras.unwrap();
                assert_eq!(paras["action"], cashier(&id));
                assert_eq!(paras["params"]["txnAmt"], "8990");
            }
            _ => assert_eq!(ins.url.as_deref(), Some(cashier(&id).as_str())),
        }
    }
}

#[actix_web::test]
async fn create_is_idempotent_per_payment_id_and_validates() {
    let clock = Clock::manual(NOW);
    let pay = sandbox(&clock).await;
    let req = request("p1", PayMethod::WechatH5, "http://127.0.0.1:1/n");
    let first = pay.create(&req).await.unwrap();
    assert_eq!(pay.create(&req).await.unwrap(), first);

    let other_amount = CreatePayment {
        amount: Fen(100),
        ..req.clone()
    };
    let rejected = |r: Result<PayInstructions, PaymentError>, code: &str| match r {
        Err(PaymentError::Rejected { code: c, .. }) => assert_eq!(c, code),
        other => panic!("{other:?}"),
    };
    rejected(pay.create(&other_amount).await, "TRADE_HAS_EXISTED");
    for bad in [
        CreatePayment {
            payment_id: "p2".into(),
            amount: Fen(0),
            ..req.clone()
        },
        CreatePayment {
            payment_id: "p2".into(),
            notify_url: "/relative".into(),
            ..req.clone()
        },
        CreatePayment {
            payment_id: "p2".into(),
            expires_at: NOW,
            ..req.clone()
        },
        CreatePayment {
            payment_id: " ".into(),
            ..req.clone()
        },
    ] {
        rejected(pay.create(&bad).await, "INVALID_PARAMETER");
    }

    pay.fail_next_create(PaymentError::Unavailable("outage".into()));
    let second = CreatePayment {
        payment_id: "p3".into(),
        ..req.clone()
    };
    assert_eq!(
        pay.create(&second).await,
        Err(PaymentError::Unavailable("outage".into()))
    );
    assert!(pay.create(&second).await.is_ok(), "one failure only");
}

#[actix_web::test]
async fn query_follows_the_ledger_and_expiry_closes() {
    let clock = Clock::manual(NOW);
    let pay = sandbox(&clock).await;
    match pay.query("nope").await {
        Err(PaymentError::Rejected { code, .. }) => assert_eq!(code, TRADE_NOT_EXIST),
        other => panic!("{other:?}"),
    }
    pay.create(&request("p1", PayMethod::WechatH5, "http://127.0.0.1:9/n"))
        .await
        .unwrap();
    assert_eq!(pay.query("p1").await, Ok(ProviderPaymentStatus::Pending));
    assert_eq!(
        pay.cashier_view("p1").await.unwrap().unwrap().state,
        CashierState::Open
    );

    pay.fail_next_query(PaymentError::Unavailable("outage".into()));
    assert!(matches!(
        pay.query("p1").await,
        Err(PaymentError::Unavailable(_))
    ));

    clock.advance_ms(HALF_HOUR - 1);
    assert_eq!(pay.query("p1").await, Ok(ProviderPaymentStatus::Pending));
    clock.advance_ms(1);
    assert_eq!(pay.query("p1").await, Ok(ProviderPaymentStatus::Closed));
    assert_eq!(
        pay.settle("p1", SettleOutcome::Success).await,
        Err(SettleError::Expired)
    );
    assert_eq!(
        pay.cashier_view("p1").await.unwrap().unwrap().state,
        CashierState::Closed
    );
    assert_eq!(
        pay.notify_delivery("p1").await.unwrap(),
        None,
        "nothing was sent"
    );
    // Closed stays closed, and the id is not reusable.
    let again = request("p1", PayMethod::WechatH5, "http://127.0.0.1:9/n");
    let again = CreatePayment {
        expires_at: NOW + 2 * HALF_HOUR,
        ..again
    };
    assert!(pay.create(&again).await.is_err());
    assert_eq!(
        pay.settle("missing", SettleOutcome::Success).await,
        Err(SettleError::NotFound)
    );
}

#[actix_web::test]
async fn refunds_never_exceed_what_was_paid() {
    let clock = Clock::manual(NOW);
    let pay = sandbox(&clock).await;
    let refused = |r: Result<RefundResult, PaymentError>| match r {
        Err(PaymentError::Rejected { code, msg }) => {
            assert_eq!(code, REFUND_REFUSED);
            assert!(!msg.is_empty());
            msg
        }
        other => panic!("{other:?}"),
    };
    refused(pay.refund("nope", "r1", Fen(100)).await);
    pay.create(&request("p1", PayMethod::WechatH5, "http://127.0.0.1:9/n"))
        .await
        .unwrap();
    let msg = refused(pay.refund("p1", "r1", Fen(100)).await);
    assert!(msg.contains("未支付"), "{msg}");

    pay.settle("p1", SettleOutcome::Success).await.unwrap();
    refused(pay.refund("p1", "r0", Fen(0)).await);
    let first = pay.refund("p1", "r1", Fen(990)).await.unwrap();
    assert_eq!(first.amount, Fen(990));
    assert_eq!(first.refunded_total, Fen(990));
    // The same refund again is answered as before and refunds nothing more.
    assert_eq!(pay.refund("p1", "r1", Fen(990)).await.unwrap(), first);
    refused(pay.refund("p1", "r1", Fen(10)).await);

    let msg = refused(pay.refund("p1", "r2", Fen(8001)).await);
    assert!(msg.contains("80.00"), "{msg}");

    pay.fail_next_refund(PaymentError::Unavailable("outage".into()));
    assert!(matches!(
        pay.refund("p1", "r2", Fen(8000)).await,
        Err(PaymentError::Unavailable(_))
    ));
    let rest = pay.refund("p1", "r2", Fen(8000)).await.unwrap();
    assert_eq!(rest.refunded_total, Fen(8990));
    assert_ne!(rest.provider_refund_no, first.provider_refund_no);
    refused(pay.refund("p1", "r3", Fen(1)).await);
    // A refund does not change what query says.
    assert!(matches!(
        pay.query("p1").await,
        Ok(ProviderPaymentStatus::Paid { .. })
    ));
}

#[actix_web::test]
async fn verify_notify_refuses_forgeries() {
    let pay = sandbox(&Clock::manual(NOW)).await;
    let signed = |pairs: &[(&str, &str)], secret: &[u8]| {
        let mut v: Vec<(String, String)> = pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        let sign = sign_params(secret, &v);
        v.push(("sign".into(), sign));
        encode_form(&v)
    };
    let good = [
        ("payment_id", "p1"),
        ("trade_no", "T1"),
        ("status", "paid"),
        ("amount", "8990"),
        ("at", "5"),
    ];
    assert!(pay
        .verify_notify(signed(&good, b"test-secret-of-the-sandbox").as_bytes())
        .is_ok());

    let tampered = signed(&good, b"test-secret-of-the-sandbox").replace("amount=8990", "amount=1");
    let cases: Vec<(&str, String, PaymentError)> = vec![
        ("tampered", tampered, PaymentError::BadSignature),
        (
            "other key",
            signed(&good, b"other"),
            PaymentError::BadSignature,
        ),
        ("unsigned", encode_form(&good), PaymentError::BadSignature),
        (
            "signed but incomplete",
            signed(&good[..4], b"test-secret-of-the-sandbox"),
            PaymentError::Malformed("notify without at".into()),
        ),
        (
            "signed but odd status",
            signed(
                &[
                    ("payment_id", "p1"),
                    ("trade_no", "T1"),
                    ("status", "refunded"),
                    ("amount", "8990"),
                    ("at", "5"),
                ],
                b"test-secret-of-the-sandbox",
            ),
            PaymentError::Malformed("notify status \"refunded\"".into()),
        ),
        (
            "not a form",
            "a=%zz".into(),
            PaymentError::Malformed("bad percent escape".into()),
        ),
    ];
    for (name, body, want) in cases {
        assert_eq!(pay.verify_notify(body.as_bytes()), Err(want), "{name}");
    }
}
