//! The notify's schedule: repeated until the answer is exactly `success`, given up after it.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::super::tests::{request, sandbox, settled_notify, Receiver, NOW};
use super::super::{NotifyDelivery, SettleOutcome};
use actors::clock::Clock;
use actors::providers::payment::{PayMethod, PaymentProvider};
use std::time::Duration;

#[actix_web::test]
async fn the_notify_is_repeated_until_the_answer_is_success() {
    let clock = Clock::manual(NOW);
    let pay = sandbox(&clock).await;
    let receiver = Receiver::start(vec!["fail", "fail", "success"]).await;
    pay.create(&request("p1", PayMethod::WechatH5, &receiver.url))
        .await
        .unwrap();
    pay.settle("p1", SettleOutcome::Success).await.unwrap();
    let delivery = settled_notify(&pay, "p1").await;
    assert_eq!(
        delivery,
        NotifyDelivery {
            attempts: 3,
            delivered: true,
            gave_up: false,
            last_answer: Some("200 success".into()),
        }
    );
    tokio::time::sleep(Duration::from_millis(150)).await;
    let bodies = receiver.bodies();
    assert_eq!(bodies.len(), 3, "no attempt after success");
    assert!(
        bodies.windows(2).all(|w| w[0] == w[1]),
        "the same notify each time"
    );
    receiver.handle.stop(false).await;
}

#[actix_web::test]
async fn the_notify_gives_up_after_the_schedule_and_wants_exactly_success() {
    let clock = Clock::manual(NOW);
    let pay = sandbox(&clock).await;
    // Close is not enough: "SUCCESS", " success" and "success\n" all count as no.
    let receiver = Receiver::start(vec!["SUCCESS", " success", "success\n", "fail"]).await;
    pay.create(&request("p1", PayMethod::WechatH5, &receiver.url))
        .await
        .unwrap();
    pay.settle("p1", SettleOutcome::Fail).await.unwrap();
    let delivery = settled_notify(&pay, "p1").await;
    assert_eq!(delivery.attempts, 5);
    assert!(!delivery.delivered);
    assert!(delivery.gave_up);
    assert_eq!(receiver.bodies().len(), 5);
    receiver.handle.stop(false).await;

    // An unreachable notify URL is retried too, and given up.
    pay.create(&request("p2", PayMethod::WechatH5, "http://127.0.0.1:9/n"))
        .await
        .unwrap();
    pay.settle("p2", SettleOutcome::Success).await.unwrap();
    let delivery = settled_notify(&pay, "p2").await;
    assert_eq!(delivery.attempts, 5);
    assert!(delivery.gave_up);
    assert!(delivery.last_answer.unwrap().starts_with("not sent"));
}
