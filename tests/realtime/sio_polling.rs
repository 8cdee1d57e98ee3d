//! Socket.IO v5 over raw HTTP long-polling (reqwest): the packets on the wire for CONNECT,
//! CONNECT_ERROR, DISCONNECT, EVENT, ACK, binary attachments, protocol errors, the connect
//! timeout, server-side acks, rooms, and connection state recovery.

use crate::sio_helpers::{config, quiet_engine, spawn, SioServer};
use pizza_order::realtime::socketio::{AckError, Socket};
use serde_json::{json, Value};
use std::time::{Duration, Instant};

fn connect_data(packet: &str, prefix: &str) -> Value {
    serde_json::from_str(packet.strip_prefix(prefix).unwrap()).unwrap()
}

#[tokio::test]
async fn connects_to_namespaces_with_an_auth_payload() {
    let server = spawn(config(None), quiet_engine());
    let sid = server.handshake().await;
    server.send(&sid, &[r#"0{"token":"123"}"#]).await;
    let packets = server.receive(&sid, 3).await;
    let data = connect_data(&packets[0], "40");
    let socket_id = data["sid"].as_str().unwrap();
    assert_eq!(data.as_object().unwrap().len(), 1, "only the sid: {data}");
    assert_eq!(socket_id.len(), 20);
    assert_ne!(socket_id, sid, "the socket id is not the engine sid");
    assert_eq!(packets[1], r#"42["auth",{"token":"123"}]"#);
    assert!(packets[2].starts_with(r#"42["welcome",{"id":""#));

    server.send(&sid, &["0/custom,"]).await;
    let packets = server.receive(&sid, 2).await;
    let data = connect_data(&packets[0], "40/custom,");
    assert_ne!(data["sid"].as_str().unwrap(), socket_id);
    assert_eq!(packets[1], r#"42/custom,["auth",{}]"#);

    // A second CONNECT to a connected namespace changes nothing.
    server
        .send(&sid, &["0/custom,", r#"2["message","still"]"#])
        .await;
    assert_eq!(
        server.receive(&sid, 1).await,
        [r#"42["message-back","still"]"#]
    );
    assert_eq!(server.io.of("/custom").sockets().len(), 1);
}

#[tokio::test]
async fn unknown_namespaces_and_refused_auth_answer_connect_error() {
    let server = spawn(config(None), quiet_engine());
    let sid = server.handshake().await;
    server.send(&sid, &["0/random"]).await;
    assert_eq!(
        server.receive(&sid, 1).await,
        [r#"44/random,{"message":"Invalid namespace"}"#]
    );
    server.send(&sid, &[r#"0/private,{"token":"wrong"}"#]).await;
    assert_eq!(
        server.receive(&sid, 1).await,
        [r#"44/private,{"message":"bad token"}"#]
    );
    assert!(server.io.of("/private").sockets().is_empty());
    // The session stays usable.
    server
        .send(&sid, &[r#"0/private,{"token":"secret"}"#])
        .await;
    let packets = server.receive(&sid, 2).await;
    assert!(
        packets[0].starts_with(r#"40/private,{"sid":""#),
        "{packets:?}"
    );
    assert!(
        packets[1].contains(r#""auth":{"token":"secret"}"#),
        "{packets:?}"
    );
}

#[tokio::test]
async fn events_acks_and_binary_attachments() {
    let server = spawn(config(None), quiet_engine());
    let (sid, _) = server.connect("0").await;
    server.receive(&sid, 2).await; // auth, welcome
    server
        .send(
            &sid,
            &[
                r#"2["message",1,"2",{"3":[true]}]"#,
                r#"2456["message-with-ack",1,"2",{"3":[false]}]"#,
                r#"2[42,"numeric name"]"#,
                r#"2["no-such-handler"]"#,
            ],
        )
        .await;
    assert_eq!(
        server.receive(&sid, 2).await,
        [
            r#"42["message-back",1,"2",{"3":[true]}]"#,
            r#"43456[1,"2",{"3":[false]}]"#
        ]
    );
    // Binary over polling: `b` + base64.
    server
        .post(
            &sid,
            &[
                r#"452-["message",{"_placeholder":true,"num":0},{"_placeholder":true,"num":1}]"#,
                "bAQID",
                "bBAUG",
                r#"451-789["message-with-ack",{"x":{"_placeholder":true,"num":0}}]"#,
                "b/w==",
            ],
        )
        .await;
    assert_eq!(
        server.receive(&sid, 5).await,
        [
            r#"452-["message-back",{"_placeholder":true,"num":0},{"_placeholder":true,"num":1}]"#,
            "bAQID",
            "bBAUG",
            r#"461-789[{"x":{"_placeholder":true,"num":0}}]"#,
            "b/w==",
        ]
    );
    server.send(&sid, &[r#"2["send-binary"]"#]).await;
    assert_eq!(
        server.receive(&sid, 3).await,
        [
            r#"452-["binary",{"_placeholder":true,"num":0},{"nested":{"_placeholder":true,"num":1}}]"#,
            "bAQID",
            "b/w==",
        ]
    );
}

#[tokio::test]
async fn a_namespace_handler_answers_every_socket_and_a_socket_handler_comes_first() {
    let server = spawn(config(None), quiet_engine());
    let (a, a_id) = server.connect("0").await;
    let (b, b_id) = server.connect("0").await;
    server.receive(&a, 2).await;
    server.receive(&b, 2).await;
    for (sid, id) in [(&a, &a_id), (&b, &b_id)] {
        server.send(sid, &[r#"27["shared",1,{"x":2}]"#]).await;
        let answer = format!(r#"437[{{"args":[1,{{"x":2}}],"from":"namespace","id":"{id}"}}]"#);
        assert_eq!(server.receive(sid, 1).await, [answer]);
    }
    // A sets its own: A's events go to it, B's still to the namespace's.
    server
        .send(&a, &[r#"28["own-shared"]"#, r#"29["shared"]"#])
        .await;
    assert_eq!(
        server.receive(&a, 2).await,
        [r#"438["ok"]"#, r#"439[{"from":"socket"}]"#]
    );
    server.send(&b, &[r#"29["shared"]"#]).await;
    let answer = format!(r#"439[{{"args":[],"from":"namespace","id":"{b_id}"}}]"#);
    assert_eq!(server.receive(&b, 1).await, [answer]);
}

#[tokio::test]
async fn malformed_packets_close_the_connection() {
    let cases: &[&[&str]] = &[
        &["4abc"],
        &["47"],
        &["42{}"],
        &[r#"42abc["message-with-ack",1]"#],
        &[r#"42["disconnect"]"#],
        &["43"],
        &[r#"451-["message",{"_placeholder":true,"num":3}]"#],
        &[
            r#"451-["message",{"_placeholder":true,"num":0}]"#,
            r#"42["message"]"#,
        ],
        &["bAQID"],
        // A packet for a namespace the client did not connect to.
        &[r#"42/custom,["message"]"#],
    ];
    let server = spawn(config(None), quiet_engine());
    for packets in cases {
        let (sid, socket_id) = server.connect("0").await;
        server.receive(&sid, 2).await;
        assert_eq!(server.post(&sid, packets).await, (200, "ok".to_owned()));
        server.assert_closed(&sid).await;
        server.wait_clients(0).await;
        let disconnects = server.disconnects();
        assert!(
            disconnects.contains(&("/".to_owned(), socket_id.clone(), "parse error")),
            "{packets:?}: {disconnects:?}"
        );
    }
    assert!(server.io.of("/").sockets().is_empty());
}

#[tokio::test]
async fn no_connect_within_the_timeout_closes_the_session() {
    let server = spawn(config(None), quiet_engine());
    let started = Instant::now();
    let sid = server.handshake().await;
    let (status, packets) = server.poll(&sid).await;
    assert_eq!((status, packets), (200, vec!["1".to_owned()]));
    let elapsed = started.elapsed();
    assert!(
        elapsed >= Duration::from_millis(900) && elapsed < Duration::from_millis(3000),
        "{elapsed:?}"
    );
    server.wait_clients(0).await;

    // A session that connected stays past the timeout, even after leaving its namespace.
    let (sid, socket_id) = server.connect("0").await;
    server.receive(&sid, 2).await;
    server.send(&sid, &["1"]).await;
    tokio::time::sleep(Duration::from_millis(1300)).await;
    assert_eq!(server.io.client_count(), 1);
    assert!(server.io.of("/").socket(&socket_id).is_none());
    assert!(server.disconnects().contains(&(
        "/".to_owned(),
        socket_id,
        "client namespace disconnect"
    )));
    // It can connect again, and gets a new socket id.
    server.send(&sid, &["0"]).await;
    let packets = server.receive(&sid, 3).await;
    assert!(packets[0].starts_with("40{"), "{packets:?}");
}

#[tokio::test]
async fn the_server_disconnects_a_socket() {
    let server = spawn(config(None), quiet_engine());
    let (sid, socket_id) = server.connect("0").await;
    server.send(&sid, &["0/custom,"]).await;
    server.receive(&sid, 4).await;
    server.send(&sid, &[r#"2["disconnect-me"]"#]).await;
    assert_eq!(server.receive(&sid, 1).await, ["41"]);
    assert!(server.disconnects().contains(&(
        "/".to_owned(),
        socket_id,
        "server namespace disconnect"
    )));
    // The other namespace and the session remain.
    assert_eq!(server.io.of("/custom").sockets().len(), 1);
    assert_eq!(server.io.client_count(), 1);
}

fn only_socket(server: &SioServer, ns: &str) -> Socket {
    let sockets = server.io.of(ns).sockets();
    assert_eq!(sockets.len(), 1);
    sockets.into_iter().next().unwrap()
}

#[tokio::test]
async fn server_emits_with_ack() {
    let server = spawn(config(None), quiet_engine());
    let (sid, _) = server.connect("0").await;
    server.receive(&sid, 2).await;
    let socket = only_socket(&server, "/");

    let answer = socket.emit_with_ack("question", vec![json!("why")], Some(Duration::from_secs(5)));
    assert_eq!(server.receive(&sid, 1).await, [r#"420["question","why"]"#]);
    assert_eq!(socket.pending_acks(), 1);
    server
        .send(
            &sid,
            &[r#"30["because",{"n":1}]"#, r#"30["again"]"#, r#"399[]"#],
        )
        .await;
    assert_eq!(answer.await, Ok(vec![json!("because"), json!({"n": 1})]));
    assert_eq!(socket.pending_acks(), 0);

    // No answer: a timeout, and the id is forgotten.
    let started = Instant::now();
    let answer = socket.emit_with_ack("question", vec![], Some(Duration::from_millis(200)));
    assert_eq!(server.receive(&sid, 1).await, [r#"421["question"]"#]);
    assert_eq!(answer.await, Err(AckError::Timeout));
    assert!(started.elapsed() >= Duration::from_millis(200));
    assert_eq!(socket.pending_acks(), 0);
    // A late answer is ignored.
    server.send(&sid, &[r#"31["late"]"#]).await;

    // A binary answer (BINARY_ACK).
    let answer = socket.emit_with_ack("question", vec![], None);
    assert_eq!(server.receive(&sid, 1).await, [r#"422["question"]"#]);
    server
        .post(&sid, &[r#"461-2[{"_placeholder":true,"num":0}]"#, "bAQID"])
        .await;
    assert_eq!(answer.await, Ok(vec![json!({"$binary": "AQID"})]));

    // Reserved names are refused; a disconnect fails the waiters.
    assert_eq!(
        socket.emit_with_ack("disconnect", vec![], None).await,
        Err(AckError::ReservedEvent("disconnect".into()))
    );
    let answer = socket.emit_with_ack("question", vec![], Some(Duration::from_secs(5)));
    server.receive(&sid, 1).await;
    server.send(&sid, &["1"]).await;
    assert_eq!(answer.await, Err(AckError::Disconnected));
    assert_eq!(
        socket.emit_with_ack("question", vec![], None).await,
        Err(AckError::Disconnected)
    );
}

#[tokio::test]
async fn rooms_and_broadcasts() {
    let server = spawn(config(None), quiet_engine());
    let (a, a_id) = server.connect("0").await;
    server.receive(&a, 2).await;
    let (b, b_id) = server.connect("0").await;
    server.receive(&b, 2).await;

    server.send(&a, &[r#"21["join","news"]"#]).await;
    let mut rooms = vec![a_id.clone(), "news".to_owned()];
    rooms.sort();
    assert_eq!(
        server.receive(&a, 1).await,
        [format!("431[{}]", json!(rooms))]
    );

    let io = &server.io;
    io.to("news").emit("headline", vec![json!(1)]).unwrap();
    io.except("news").emit("others", vec![json!(2)]).unwrap();
    io.to(b_id.as_str()).emit("direct", vec![json!(3)]).unwrap();
    io.to("news")
        .to(b_id.as_str())
        .except(a_id.as_str())
        .emit("mixed", vec![json!(4)])
        .unwrap();
    io.emit("all", vec![json!(5)]).unwrap();
    assert_eq!(
        server.receive(&a, 2).await,
        [r#"42["headline",1]"#, r#"42["all",5]"#]
    );
    assert_eq!(
        server.receive(&b, 4).await,
        [
            r#"42["others",2]"#,
            r#"42["direct",3]"#,
            r#"42["mixed",4]"#,
            r#"42["all",5]"#
        ]
    );
    assert_eq!(io.to("news").socket_ids(), vec![a_id.clone()]);
    assert_eq!(
        io.of("/custom").to("news").socket_ids(),
        Vec::<String>::new()
    );

    // A socket's broadcast leaves it out.
    server
        .send(&a, &[r#"2["to-others","hello",{"from":"a"}]"#])
        .await;
    assert_eq!(server.receive(&b, 1).await, [r#"42["hello",{"from":"a"}]"#]);

    server.send(&a, &[r#"22["leave","news"]"#]).await;
    server.receive(&a, 1).await;
    assert!(io.to("news").socket_ids().is_empty());
    // Reserved names cannot be broadcast.
    assert!(io.emit("connect", vec![]).is_err());
}

fn event(packet: &str, prefix: &str) -> Vec<Value> {
    let value: Value = serde_json::from_str(packet.strip_prefix(prefix).unwrap()).unwrap();
    value.as_array().unwrap().clone()
}

/// Connects with recovery on; returns the sid, the socket id and the pid.
async fn connect_recoverable(server: &SioServer, packet: &str) -> (String, String, String) {
    let (sid, data) = server.connect_full(packet).await;
    let pid = data["pid"].as_str().unwrap().to_owned();
    let socket_id = data["sid"].as_str().unwrap().to_owned();
    assert_ne!(pid, socket_id);
    (sid, socket_id, pid)
}

#[tokio::test]
async fn recovery_restores_the_socket_and_replays_missed_broadcasts() {
    let server = spawn(config(Some(Duration::from_secs(60))), quiet_engine());
    let io = &server.io;
    let (sid, socket_id, pid) = connect_recoverable(&server, "0").await;
    server.receive(&sid, 2).await;
    let socket = only_socket(&server, "/");
    assert!(!socket.recovered());
    socket.join("news");
    io.to("news").emit("news", vec![json!(1)]).unwrap();
    let first = event(&server.receive(&sid, 1).await[0], "42");
    assert_eq!(first[..2], [json!("news"), json!(1)]);
    let offset = first[2].as_str().unwrap().to_owned();

    // The connection is lost; broadcasts go on.
    server.drop_connection(&sid).await;
    assert!(server
        .disconnects()
        .contains(&("/".to_owned(), socket_id.clone(), "server close")));
    io.to("news").emit("news", vec![json!(2)]).unwrap();
    io.emit("all", vec![json!(3)]).unwrap();
    io.to("sport").emit("sport", vec![json!(4)]).unwrap();
    io.except("news").emit("not-news", vec![json!(5)]).unwrap();
    io.to(socket_id.as_str())
        .emit("direct", vec![json!({"n": 6})])
        .unwrap();

    let sid = server.handshake().await;
    server
        .send(
            &sid,
            &[&format!(r#"0{{"pid":"{pid}","offset":"{offset}"}}"#)],
        )
        .await;
    // The missed broadcasts, in order, then the CONNECT answer (as the reference server).
    let packets = server.receive(&sid, 6).await;
    let data = connect_data(&packets[3], "40");
    assert_eq!(
        data,
        json!({"sid": socket_id, "pid": pid}),
        "same socket, same pid"
    );
    let replayed: Vec<Vec<Value>> = packets[0..3].iter().map(|p| event(p, "42")).collect();
    let names: Vec<(&str, &Value)> = replayed
        .iter()
        .map(|e| (e[0].as_str().unwrap(), &e[1]))
        .collect();
    assert_eq!(
        names,
        [
            ("news", &json!(2)),
            ("all", &json!(3)),
            ("direct", &json!({"n": 6}))
        ]
    );
    assert!(replayed.iter().all(|e| e.len() == 3 && e[2].is_string()));
    assert_eq!(
        event(&packets[4], "42"),
        [json!("auth"), json!({"pid": pid, "offset": offset})]
    );
    let welcome = &event(&packets[5], "42")[1];
    assert_eq!(welcome["recovered"], json!(true));
    let socket = only_socket(&server, "/");
    assert!(socket.recovered());
    assert_eq!(socket.id(), socket_id);
    let mut rooms = vec![socket_id.clone(), "news".to_owned()];
    rooms.sort();
    assert_eq!(socket.rooms(), rooms);

    // Live broadcasts reach it again.
    io.to("news").emit("news", vec![json!(7)]).unwrap();
    assert_eq!(event(&server.receive(&sid, 1).await[0], "42")[1], json!(7));

    // The session was taken: the same pid again (while this socket is up) is a fresh socket.
    let (other, other_id, other_pid) = connect_recoverable(
        &server,
        &format!(r#"0{{"pid":"{pid}","offset":"{offset}"}}"#),
    )
    .await;
    assert_ne!(
        (other_id.as_str(), other_pid.as_str()),
        (socket_id.as_str(), pid.as_str())
    );
    let welcome = &event(&server.receive(&other, 2).await[1], "42")[1];
    assert_eq!(welcome["recovered"], json!(false));
}

#[tokio::test]
async fn recovery_without_an_offset_replays_from_the_connection() {
    let server = spawn(config(Some(Duration::from_secs(60))), quiet_engine());
    let (sid, socket_id, pid) = connect_recoverable(&server, "0").await;
    server.receive(&sid, 2).await;
    server.send(&sid, &[r#"2["join","news"]"#]).await;
    server.drop_connection(&sid).await;
    server.io.to("news").emit("news", vec![json!(1)]).unwrap();
    server.io.to("news").emit("news", vec![json!(2)]).unwrap();

    let sid = server.handshake().await;
    server
        .send(&sid, &[&format!(r#"0{{"pid":"{pid}"}}"#)])
        .await;
    let packets = server.receive(&sid, 5).await;
    assert_eq!(event(&packets[0], "42")[1], json!(1));
    assert_eq!(event(&packets[1], "42")[1], json!(2));
    assert_eq!(connect_data(&packets[2], "40")["sid"], json!(socket_id));
}

#[tokio::test]
async fn no_recovery_past_the_window_or_for_an_unknown_session() {
    let server = spawn(config(Some(Duration::from_millis(300))), quiet_engine());
    let io = &server.io;
    let (sid, socket_id, pid) = connect_recoverable(&server, "0").await;
    server.receive(&sid, 2).await;
    server.send(&sid, &[r#"2["join","news"]"#]).await;
    io.to("news").emit("news", vec![json!(1)]).unwrap();
    let offset = event(&server.receive(&sid, 1).await[0], "42")[2]
        .as_str()
        .unwrap()
        .to_owned();
    server.drop_connection(&sid).await;
    io.to("news").emit("news", vec![json!(2)]).unwrap();
    tokio::time::sleep(Duration::from_millis(500)).await;

    for auth in [
        format!(r#"{{"pid":"{pid}","offset":"{offset}"}}"#),
        r#"{"pid":"unknown","offset":"x.1"}"#.to_owned(),
        r#"{"pid":42}"#.to_owned(),
    ] {
        let (sid, new_id, new_pid) = connect_recoverable(&server, &format!("0{auth}")).await;
        assert_ne!(new_id, socket_id);
        assert_ne!(new_pid, pid);
        let packets = server.receive(&sid, 2).await;
        let welcome = &event(&packets[1], "42")[1];
        assert_eq!(welcome["recovered"], json!(false), "{auth}");
        assert_eq!(welcome["rooms"], json!([new_id]), "{auth}");
    }
}

#[tokio::test]
async fn recovery_still_runs_the_auth_hook() {
    let server = spawn(config(Some(Duration::from_secs(60))), quiet_engine());
    let (sid, socket_id, pid) =
        connect_recoverable(&server, r#"0/private,{"token":"secret"}"#).await;
    server.receive(&sid, 1).await;
    server.drop_connection(&sid).await;
    server
        .io
        .of("/private")
        .emit("notice", vec![json!("missed")])
        .unwrap();

    let sid = server.handshake().await;
    server
        .send(
            &sid,
            &[&format!(r#"0/private,{{"pid":"{pid}","token":"stolen"}}"#)],
        )
        .await;
    assert_eq!(
        server.receive(&sid, 1).await,
        [r#"44/private,{"message":"bad token"}"#]
    );
    // Refused, the session is still there for its owner.
    server
        .send(
            &sid,
            &[&format!(r#"0/private,{{"pid":"{pid}","token":"secret"}}"#)],
        )
        .await;
    let packets = server.receive(&sid, 3).await;
    assert_eq!(
        event(&packets[0], "42/private,")[..2],
        [json!("notice"), json!("missed")]
    );
    assert_eq!(
        connect_data(&packets[1], "40/private,")["sid"],
        json!(socket_id)
    );
}
