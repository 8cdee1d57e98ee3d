//! The WebSocket transport at the frame level, over raw TCP: what the official clients never do.

use crate::helpers::{quiet_config, spawn};
use pizza_order::realtime::engineio::{echo, DisconnectReason, EngineConfig};
use std::net::TcpListener;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// A masked client text frame (RFC 6455 §5.3), short payloads only.
fn client_text_frame(text: &str) -> Vec<u8> {
    let mask = [0x12, 0x34, 0x56, 0x78];
    let mut frame = vec![0x81, 0x80 | u8::try_from(text.len()).unwrap()];
    frame.extend_from_slice(&mask);
    frame.extend(text.bytes().enumerate().map(|(i, b)| b ^ mask[i % 4]));
    frame
}

/// A WebSocket upgrade request (RFC 6455's example key, whose accept value is known).
pub fn upgrade_request(address: &str, path_and_query: &str, version: &str) -> String {
    format!(
        "GET {path_and_query} HTTP/1.1\r\nHost: {address}\r\nConnection: Upgrade\r\n\
         Upgrade: websocket\r\nSec-WebSocket-Version: {version}\r\n\
         Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
    )
}

/// Reads one unmasked server frame: (opcode, payload).
async fn read_frame(stream: &mut TcpStream) -> (u8, Vec<u8>) {
    let mut head = [0u8; 2];
    stream.read_exact(&mut head).await.unwrap();
    assert_eq!(head[1] & 0x80, 0, "server frames are not masked");
    let len = match head[1] & 0x7f {
        126 => {
            let mut ext = [0u8; 2];
            stream.read_exact(&mut ext).await.unwrap();
            usize::from(u16::from_be_bytes(ext))
        }
        127 => panic!("no frame that long here"),
        short => usize::from(short),
    };
    let mut payload = vec![0; len];
    stream.read_exact(&mut payload).await.unwrap();
    (head[0] & 0x0f, payload)
}

async fn read_head(stream: &mut TcpStream) -> String {
    let mut head = Vec::new();
    while !head.ends_with(b"\r\n\r\n") {
        let mut byte = [0u8; 1];
        stream.read_exact(&mut byte).await.unwrap();
        head.push(byte[0]);
    }
    String::from_utf8(head).unwrap()
}

/// Opens a WebSocket session over raw TCP and reads up to its open packet; returns the sid.
async fn open_raw(base: &str, path: &str) -> (TcpStream, String) {
    let address = base.trim_start_matches("http://");
    let mut stream = TcpStream::connect(address).await.unwrap();
    let request = upgrade_request(address, &format!("{path}?EIO=4&transport=websocket"), "13");
    stream.write_all(request.as_bytes()).await.unwrap();
    let sid = read_open(&mut stream).await;
    (stream, sid)
}

/// Reads the answer to an upgrade and the open packet after it; returns the sid.
async fn read_open(stream: &mut TcpStream) -> String {
    read_head(stream).await;
    let (_, open) = read_frame(stream).await;
    let open: serde_json::Value = serde_json::from_slice(&open[1..]).unwrap();
    open["sid"].as_str().unwrap().to_owned()
}

#[tokio::test]
async fn a_client_that_stops_reading_is_dropped_before_its_backlog_grows_without_bound() {
    let server = spawn(quiet_config()).await;
    let (_stream, sid) = open_raw(&server.base, "/engine.io/").await;
    let socket = server.engine.socket(&sid).unwrap();
    // The client never reads. What the kernel's buffers do not take waits on the server,
    // up to 8 MiB; past that the session closes instead of holding more.
    let chunk = "x".repeat(1 << 20);
    for _ in 0..64 {
        socket.send_text(chunk.clone());
        tokio::task::yield_now().await;
    }
    assert_eq!(
        server.wait_closed(&sid).await,
        DisconnectReason::TransportClose
    );
    assert!(!socket.is_connected());
}

#[tokio::test]
async fn a_closing_connection_whose_client_stopped_reading_is_ended_after_a_bounded_wait() {
    let server = spawn(quiet_config()).await;
    // A small receive window, so that most of what follows waits on the server.
    let address: std::net::SocketAddr = server.base.trim_start_matches("http://").parse().unwrap();
    let raw = socket2::Socket::new(socket2::Domain::IPV4, socket2::Type::STREAM, None).unwrap();
    raw.set_recv_buffer_size(4096).unwrap();
    raw.connect(&address.into()).unwrap();
    let std_stream: std::net::TcpStream = raw.into();
    std_stream.set_nonblocking(true).unwrap();
    let mut stream = TcpStream::from_std(std_stream).unwrap();
    let request = upgrade_request(
        &address.to_string(),
        "/engine.io/?EIO=4&transport=websocket",
        "13",
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let sid = read_open(&mut stream).await;

    // Megabytes the client does not read (less than the 8 MiB that would drop it), then the
    // server closes the session. The test's handler keeps its session handle all along.
    let socket = server.engine.socket(&sid).unwrap();
    for _ in 0..7 {
        socket.send_text("x".repeat(1 << 20));
        tokio::task::yield_now().await;
    }
    socket.close();
    assert_eq!(
        server.wait_closed(&sid).await,
        DisconnectReason::ServerClose
    );

    // The server gives up writing after its close timeout (5 s) and ends the connection: the
    // client, reading at last, reaches the end of the stream instead of waiting forever.
    tokio::time::sleep(Duration::from_secs(6)).await;
    let mut rest = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut rest)).await;
    assert!(matches!(read, Ok(Ok(_))), "the stream ends: {read:?}");
    assert!(
        rest.len() < 7 << 20,
        "what was still waiting on the server is dropped"
    );
}

#[tokio::test]
async fn frames_sent_with_the_handshake_and_pings_are_answered_in_order() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap();
    let (server, _engine) = echo::serve(listener, "/engine.io/", EngineConfig::default()).unwrap();
    tokio::spawn(server);

    let mut stream = TcpStream::connect(address).await.unwrap();
    // The handshake and two messages in one write: the messages arrive in the same read as
    // the request, before the server has answered it.
    let mut bytes = upgrade_request(
        &address.to_string(),
        "/engine.io/?EIO=4&transport=websocket",
        "13",
    )
    .into_bytes();
    bytes.extend(client_text_frame("4one"));
    bytes.extend(client_text_frame("4two"));
    stream.write_all(&bytes).await.unwrap();

    let head = tokio::time::timeout(Duration::from_secs(5), read_head(&mut stream))
        .await
        .unwrap();
    assert!(head.starts_with("HTTP/1.1 101 "), "{head}");
    // The accept key of RFC 6455's own example.
    assert!(
        head.contains("sec-websocket-accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo="),
        "{head}"
    );

    let (opcode, open) = read_frame(&mut stream).await;
    assert_eq!(opcode, 0x1);
    assert!(
        open.starts_with(b"0{\"sid\":"),
        "{}",
        String::from_utf8_lossy(&open)
    );
    assert_eq!(read_frame(&mut stream).await, (0x1, b"4one".to_vec()));
    assert_eq!(read_frame(&mut stream).await, (0x1, b"4two".to_vec()));

    // A WebSocket ping (opcode 9) gets its pong (opcode 10) with the same data, between
    // Engine.IO messages and in order with them.
    let mut ping = vec![0x89, 0x80 | 3, 0, 0, 0, 0];
    ping.extend_from_slice(b"abc");
    stream.write_all(&ping).await.unwrap();
    stream
        .write_all(&client_text_frame("4three"))
        .await
        .unwrap();
    assert_eq!(read_frame(&mut stream).await, (0xA, b"abc".to_vec()));
    assert_eq!(read_frame(&mut stream).await, (0x1, b"4three".to_vec()));

    // A close frame is answered with a normal close, then the end of the stream.
    stream.write_all(&[0x88, 0x80, 0, 0, 0, 0]).await.unwrap();
    assert_eq!(read_frame(&mut stream).await, (0x8, vec![0x03, 0xe8]));
    let mut rest = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(5), stream.read_to_end(&mut rest)).await;
    assert!(
        matches!(read, Ok(Ok(0))),
        "the server ends the stream after its close frame"
    );
}

/// A masked client text frame of any length up to 64 KiB.
fn client_frame(text: &str, mask: [u8; 4]) -> Vec<u8> {
    let mut frame = vec![0x81];
    match text.len() {
        n if n < 126 => frame.push(0x80 | u8::try_from(n).unwrap()),
        n => {
            frame.push(0x80 | 126);
            frame.extend_from_slice(&u16::try_from(n).unwrap().to_be_bytes());
        }
    }
    frame.extend_from_slice(&mask);
    frame.extend(text.bytes().enumerate().map(|(i, b)| b ^ mask[i % 4]));
    frame
}

/// Connections of one server thread read into one buffer lent to each in turn, and a frame
/// whose end has not arrived stays with its own connection. Random messages (a byte to past
/// a read's 4 KiB), cut at random places and sent by three connections in random turns: each
/// gets exactly its own back, whole and in order, whoever read in between.
#[tokio::test]
async fn frames_cut_anywhere_and_interleaved_between_connections_arrive_whole() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap();
    let (server, _engine) = echo::serve(listener, "/engine.io/", EngineConfig::default()).unwrap();
    tokio::spawn(server);

    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move |below: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        usize::try_from(seed % below as u64).unwrap()
    };
    const CONNECTIONS: usize = 3;
    let mut clients = Vec::new();
    for c in 0..CONNECTIONS {
        let (stream, _) = open_raw(&format!("http://{address}"), "/engine.io/").await;
        let messages: Vec<String> = (0..12)
            .map(|m| {
                let len = [1, 3, 40, 125, 126, 600, 4090, 4100, 9000][next(9)];
                let body: String = (0..len)
                    .map(|i| char::from(b'a' + ((i + m + c) % 26) as u8))
                    .collect();
                format!("4{c}-{m}:{body}")
            })
            .collect();
        let bytes: Vec<u8> = messages
            .iter()
            .flat_map(|m| client_frame(m, [c as u8 + 1, 0x5a, 0xa5, m.len() as u8]))
            .collect();
        clients.push((stream, messages, bytes, 0usize));
    }
    // Random turns, random cuts; a pause now and then lets the server read what is there.
    while clients
        .iter()
        .any(|(_, _, bytes, sent)| *sent < bytes.len())
    {
        let (stream, _, bytes, sent) = &mut clients[next(CONNECTIONS)];
        if *sent == bytes.len() {
            continue;
        }
        let cut = (*sent + 1 + next(3000)).min(bytes.len());
        stream.write_all(&bytes[*sent..cut]).await.unwrap();
        *sent = cut;
        if next(3) == 0 {
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
    }
    for (stream, messages, _, _) in &mut clients {
        for message in messages.iter() {
            let (opcode, echoed) =
                tokio::time::timeout(Duration::from_secs(10), read_frame(stream))
                    .await
                    .unwrap();
            assert_eq!(opcode, 0x1);
            assert_eq!(String::from_utf8(echoed).unwrap(), *message);
        }
    }
}
