#![allow(clippy::unwrap_used, clippy::expect_used)]
//! The StoreActor's messages through its registry, on a real SQLite file: two registries on
//! one file are two nodes of one deployment.

use super::*;
use crate::bus::LocalBus;
use crate::domain::catalogue::virtual_store;
use std::path::PathBuf;

pub(super) struct Node {
    pub(super) boards: Arc<StoreBoards>,
    pub(super) bus: Arc<LocalBus>,
}

pub(super) struct Deployment {
    pub(super) db: Db,
    pub(super) clock: Clock,
    dir: PathBuf,
}

impl Drop for Deployment {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

pub(super) async fn deployment() -> Deployment {
    let dir = std::env::temp_dir().join(format!("store-actor-{}", uuid::Uuid::new_v4().simple()));
    std::fs::create_dir_all(&dir).unwrap();
    let url = format!("sqlite://{}?mode=rwc", dir.join("pizza.db").display());
    let db = Db::connect(&url, 4).await.unwrap();
    db.migrate().await.unwrap();
    Deployment {
        db,
        clock: Clock::manual(1_000_000),
        dir,
    }
}

impl Deployment {
    /// A node with its own bus, and `peers` between nodes (None: as nodes without Redis).
    pub(super) fn node(&self, peers: Option<Arc<LocalBus>>, idle: Duration) -> Node {
        let bus = Arc::new(LocalBus::new());
        let arbiter = crate::actor_thread::start().unwrap();
        Node {
            boards: StoreBoards::start(
                self.db.clone(),
                (bus.clone(), peers.map(|p| p as Arc<dyn Bus>)),
                Arc::new(presence::LocalPresence::new(1_000_000)),
                self.clock.clone(),
                arbiter,
                idle,
            ),
            bus,
        }
    }
}

fn store(code: &str) -> Store {
    let mut s = virtual_store(None);
    s.store_code = code.into();
    s
}

pub(super) async fn until(what: &str, mut done: impl FnMut() -> bool) {
    for _ in 0..500 {
        if done() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("timed out waiting for {what}");
}

#[tokio::test]
async fn a_first_read_activates_the_store_with_its_stored_board() {
    let d = deployment().await;
    let a = d.node(None, IDLE);
    assert_eq!(a.boards.live_actors(), 0);
    let live = a.boards.live("SH001").await.unwrap();
    assert_eq!(
        live,
        StoreLive::default(),
        "never set: the catalogue's status"
    );
    assert_eq!(a.boards.live_actors(), 1);
    a.boards.live("SH001").await.unwrap();
    assert_eq!(a.boards.live_actors(), 1, "one actor per store");
    a.boards.live("SH002").await.unwrap();
    assert_eq!(a.boards.live_actors(), 2);
}

#[tokio::test]
async fn changes_are_stored_applied_and_announced_with_their_version() {
    let d = deployment().await;
    let a = d.node(None, IDLE);
    let mut events = a.bus.subscribe();
    let sh001 = store("SH001");

    let (shown, _) = a
        .boards
        .set_status(&sh001, StoreStatus::Busy, Some("排队中"), "manager")
        .await
        .unwrap();
    assert_eq!(shown.status, StoreStatus::Busy);
    let Event::StoreUpdate {
        status,
        notice,
        version,
        ..
    } = events.recv().await.unwrap()
    else {
        panic!("a store update")
    };
    assert_eq!(
        (status.as_str(), notice.as_deref(), version),
        ("busy", Some("排队中"), 1)
    );

    let (_, live) = a.boards.set_sold_out(&sh001, "PZ001", true).await.unwrap();
    assert_eq!(live.sold_out, vec!["PZ001".to_string()]);
    let Event::StoreUpdate {
        sold_out, version, ..
    } = events.recv().await.unwrap()
    else {
        panic!("a store update")
    };
    assert_eq!((sold_out, version), (vec!["PZ001".to_string()], 2));

    // A repeat: nothing stored, no version, no event.
    let (_, live) = a.boards.set_sold_out(&sh001, "PZ001", true).await.unwrap();
    assert_eq!(live.sold_out, vec!["PZ001".to_string()]);
    assert!(events.try_recv().is_err(), "a repeat tells no one");
    assert_eq!(
        StoreBoardRepo::new(d.db.clone())
            .version("SH001")
            .await
            .unwrap(),
        2
    );

    // Persisted, and read from memory since.
    let stored = StoreBoardRepo::new(d.db.clone())
        .load("SH001")
        .await
        .unwrap();
    assert_eq!(stored.live, a.boards.live("SH001").await.unwrap());
    assert_eq!(stored.live.status, Some(StoreStatus::Busy));

    let (_, live) = a.boards.set_sold_out(&sh001, "PZ001", false).await.unwrap();
    assert!(live.sold_out.is_empty());
    let (_, live) = a.boards.set_sold_out(&sh001, "PZ001", false).await.unwrap();
    assert!(live.sold_out.is_empty(), "back on sale twice is once");
    assert_eq!(
        StoreBoardRepo::new(d.db.clone())
            .version("SH001")
            .await
            .unwrap(),
        3
    );
}

#[tokio::test]
async fn an_idle_store_passivates_and_comes_back_with_what_was_stored() {
    let d = deployment().await;
    // Idle long enough that the check right after the write cannot find it stopped already.
    let a = d.node(None, Duration::from_millis(500));
    let sh001 = store("SH001");
    a.boards
        .set_status(&sh001, StoreStatus::Closed, None, "manager")
        .await
        .unwrap();
    assert_eq!(a.boards.live_actors(), 1);
    until("the idle actor to stop", || a.boards.live_actors() == 0).await;

    // Meanwhile another node sells out a product (this node hears nothing).
    let b = d.node(None, IDLE);
    b.boards.set_sold_out(&sh001, "DR001", true).await.unwrap();

    let (shown, live) = a.boards.effective(&sh001).await.unwrap();
    assert_eq!(a.boards.live_actors(), 1, "activated again");
    assert_eq!(shown.status, StoreStatus::Closed);
    assert_eq!(live.sold_out, vec!["DR001".to_string()]);
}

#[tokio::test]
async fn another_nodes_change_is_seen_by_the_next_checked_read_and_after_the_max_age() {
    let d = deployment().await;
    let (a, b) = (d.node(None, IDLE), d.node(None, IDLE));
    let sh001 = store("SH001");
    assert!(a.boards.live("SH001").await.unwrap().sold_out.is_empty());

    b.boards.set_sold_out(&sh001, "PZ001", true).await.unwrap();
    // No shared bus: memory may still say available, the money path may not.
    let (_, checked) = a.boards.effective_checked(&sh001).await.unwrap();
    assert_eq!(checked.sold_out, vec!["PZ001".to_string()]);

    b.boards
        .set_status(&sh001, StoreStatus::Closed, None, "manager")
        .await
        .unwrap();
    let (shown, _) = a.boards.effective(&sh001).await.unwrap();
    assert_eq!(
        shown.status,
        StoreStatus::Open,
        "memory, within the max age"
    );
    d.clock.advance_ms(MAX_AGE_MS);
    let (shown, _) = a.boards.effective(&sh001).await.unwrap();
    assert_eq!(
        shown.status,
        StoreStatus::Closed,
        "checked once older than the max age"
    );
}

#[tokio::test]
async fn the_bus_makes_other_nodes_reload() {
    let d = deployment().await;
    let bus = Arc::new(LocalBus::new());
    let (a, b) = (
        d.node(Some(bus.clone()), IDLE),
        d.node(Some(bus.clone()), IDLE),
    );
    let sh001 = store("SH001");
    a.boards.live("SH001").await.unwrap();
    b.boards
        .set_status(&sh001, StoreStatus::Busy, None, "manager")
        .await
        .unwrap();
    // The clock stands still: only the invalidation can bring the change to A.
    for _ in 0..200 {
        if a.boards.live("SH001").await.unwrap().status == Some(StoreStatus::Busy) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("node A never reloaded after B's store:update");
}

#[tokio::test]
async fn store_lists_activate_every_store_at_once() {
    let d = deployment().await;
    let a = d.node(None, IDLE);
    let (sh001, sh002) = (store("SH001"), store("SH002"));
    StoreBoardRepo::new(d.db.clone())
        .set_status("SH002", StoreStatus::Closed, None, "x", 1)
        .await
        .unwrap();
    let all = a
        .boards
        .effective_all(&[sh001.clone(), sh002.clone()])
        .await
        .unwrap();
    assert_eq!(
        all.iter().map(|s| s.status).collect::<Vec<_>>(),
        vec![StoreStatus::Open, StoreStatus::Closed]
    );
    assert_eq!(a.boards.live_actors(), 2);
}

#[tokio::test]
async fn a_store_with_a_tablet_connected_stays_and_counts_it() {
    let d = deployment().await;
    let a = d.node(None, Duration::from_millis(50));
    let at = d.clock.now_ms();
    let status = a.boards.tablet_joined("SH001", "t1", at).await;
    assert_eq!(status.online, 1);
    assert_eq!(status.none_since, None);
    assert_eq!(a.boards.tablet_joined("SH001", "t2", at).await.online, 2);
    // Well past the idle time: the tablets keep the store's actor alive.
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(a.boards.live_actors(), 1);
    assert_eq!(a.boards.tablet_left("SH001", "t1", at + 5).await.online, 1);
    let gone = a.boards.tablet_left("SH001", "t2", at + 9).await;
    assert_eq!((gone.online, gone.none_since), (0, Some(at + 9)));
    assert_eq!(a.boards.presence("SH001", at + 10).await, gone);
    // With the last one gone it passivates like any quiet store.
    until("the actor to stop once its tablets left", || {
        a.boards.live_actors() == 0
    })
    .await;
    // A read of presence needs no actor.
    assert_eq!(a.boards.presence("SH001", at + 20).await.online, 0);
    assert_eq!(a.boards.live_actors(), 0);
}

#[tokio::test]
async fn a_stores_tablet_comings_and_goings_apply_in_the_order_sent() {
    let d = deployment().await;
    let a = d.node(None, IDLE);
    let at = d.clock.now_ms();
    // Sent without waiting, as the gateway's feed does: each is applied after the one before.
    let boards = a.boards.clone();
    let joins: Vec<_> = (0..20)
        .map(|i| {
            let boards = boards.clone();
            let tablet = format!("t{i}");
            async move { boards.tablet_joined("SH001", &tablet, at).await }
        })
        .collect();
    futures_util::future::join_all(joins).await;
    assert_eq!(a.boards.presence("SH001", at).await.online, 20);
    for i in 0..20 {
        a.boards
            .tablet_left("SH001", &format!("t{i}"), at + i)
            .await;
    }
    let status = a.boards.presence("SH001", at + 30).await;
    assert_eq!((status.online, status.none_since), (0, Some(at + 19)));
}
