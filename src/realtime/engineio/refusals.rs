//! What actix-http's HTTP/1 parser answers by itself. A request head it cannot read (more than
//! 96 header lines, over 128 KiB, a URI over 64 KiB, a request line that is not HTTP) never
//! reaches a service or a middleware: the dispatcher writes a bare `400` or `431` (no body, no
//! headers but the length and the date) and closes the connection. Nothing in actix-http lets
//! a server shape that answer, so the connection's stream is wrapped ([`Refusing`]): a write
//! that is exactly such an answer is replaced by what the server renders for its status
//! ([`RenderRefusal`]), everything else passes through untouched.
//!
//! Recognised by its form alone: our own answers always carry more headers than a length and a
//! date (the edge adds the security headers to every one of them). The refusal is the last
//! answer on its connection; one that shares a write with answers pipelined before it is left
//! as the parser wrote it.

use std::fmt;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{ready, Context, Poll};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// Renders the whole HTTP/1.1 answer (head and body) that replaces the parser's bare one with
/// this status (400 or 431).
#[derive(Clone)]
pub struct RenderRefusal(pub Arc<dyn Fn(u16) -> Vec<u8> + Send + Sync>);

impl fmt::Debug for RenderRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("RenderRefusal")
    }
}

/// A connection's stream whose parser refusals are rewritten (see the module documentation).
pub struct Refusing<T> {
    io: T,
    render: Option<RenderRefusal>,
    /// The answer that replaced a refusal, and how much of it is written.
    replacing: Option<(Vec<u8>, usize)>,
}

impl<T> Refusing<T> {
    pub fn new(io: T, render: Option<RenderRefusal>) -> Refusing<T> {
        Refusing {
            io,
            render,
            replacing: None,
        }
    }

    /// The stream itself (an upgrade takes it over; nothing is being replaced then).
    pub fn into_inner(self) -> T {
        self.io
    }
}

impl<T: AsyncWrite + Unpin> Refusing<T> {
    /// Writes what is left of the replacing answer.
    fn write_replacement(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while let Some((bytes, written)) = &mut self.replacing {
            if *written == bytes.len() {
                self.replacing = None;
                break;
            }
            let n = ready!(Pin::new(&mut self.io).poll_write(cx, &bytes[*written..]))?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            *written += n;
        }
        Poll::Ready(Ok(()))
    }
}

/// The status of a bare refusal as the parser writes it, if `buf` is exactly one.
pub fn parser_refusal(buf: &[u8]) -> Option<u16> {
    // Nearly every write is a 2xx or 3xx head, a body or a frame: one comparison and out.
    let rest = buf
        .strip_prefix(b"HTTP/1.1 ")
        .or_else(|| buf.strip_prefix(b"HTTP/1.0 "))?;
    let status = match rest.get(..4)? {
        b"400 " => 400,
        b"431 " => 431,
        _ => return None,
    };
    let head = std::str::from_utf8(buf.strip_suffix(b"\r\n\r\n")?).ok()?;
    let mut lines = head.split("\r\n");
    lines.next();
    for line in lines {
        let (name, value) = line.split_once(':')?;
        let value = value.trim();
        let bare = match name.trim().to_ascii_lowercase().as_str() {
            "content-length" => value == "0",
            "date" | "connection" => true,
            _ => false,
        };
        if !bare {
            return None;
        }
    }
    Some(status)
}

impl<T: AsyncRead + Unpin> AsyncRead for Refusing<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_read(cx, buf)
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for Refusing<T> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        ready!(self.write_replacement(cx))?;
        let this = &mut *self;
        if let Some(render) = &this.render {
            if let Some(status) = parser_refusal(buf) {
                this.replacing = Some(((render.0)(status), 0));
                // The refusal counts as written; its replacement goes out before anything else,
                // here or in the flush and shutdown that follow.
                if let Poll::Ready(Err(e)) = this.write_replacement(cx) {
                    return Poll::Ready(Err(e));
                }
                return Poll::Ready(Ok(buf.len()));
            }
        }
        Pin::new(&mut this.io).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.write_replacement(cx))?;
        Pin::new(&mut self.io).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.write_replacement(cx))?;
        Pin::new(&mut self.io).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_parsers_bare_answers_are_refusals() {
        let date = "date: Wed, 02 Dec 2026 02:00:11 GMT\r\n";
        let cases: Vec<(String, Option<u16>)> = vec![
            (
                format!("HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\n{date}\r\n"),
                Some(431),
            ),
            (
                format!("HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\nconnection: close\r\n{date}\r\n"),
                Some(400),
            ),
            ("HTTP/1.0 400 Bad Request\r\ncontent-length: 0\r\n\r\n".into(), Some(400)),
            // Ours: a body, or headers of our own.
            (
                format!("HTTP/1.1 400 Bad Request\r\ncontent-length: 2\r\n{date}\r\n{{}}"),
                None,
            ),
            (
                format!("HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\nx-content-type-options: nosniff\r\n{date}\r\n"),
                None,
            ),
            // Other statuses, bodies, frames.
            (format!("HTTP/1.1 200 OK\r\ncontent-length: 0\r\n{date}\r\n"), None),
            (format!("HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n{date}\r\n"), None),
            ("{\"errCode\":\"00\"}".into(), None),
            ("HTTP/1.1 4".into(), None),
            (String::new(), None),
            // A refusal after an answer pipelined before it, in one write: left alone.
            (
                format!("HTTP/1.1 200 OK\r\ncontent-length: 0\r\n{date}\r\nHTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n{date}\r\n"),
                None,
            ),
        ];
        for (text, want) in cases {
            assert_eq!(parser_refusal(text.as_bytes()), want, "{text:?}");
        }
    }

    #[tokio::test]
    async fn a_refusal_is_written_as_rendered_and_the_rest_as_given() {
        let render = RenderRefusal(Arc::new(|status| format!("<{status}>").into_bytes()));
        let (client, server) = tokio::io::duplex(4096);
        let mut wrapped = Refusing::new(server, Some(render));
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        wrapped
            .write_all(b"HTTP/1.1 200 OK\r\nx: y\r\n\r\n")
            .await
            .ok();
        wrapped
            .write_all(b"HTTP/1.1 431 Too Large\r\ncontent-length: 0\r\n\r\n")
            .await
            .ok();
        wrapped.shutdown().await.ok();
        drop(wrapped);
        let mut seen = String::new();
        let mut client = client;
        client.read_to_string(&mut seen).await.ok();
        assert_eq!(seen, "HTTP/1.1 200 OK\r\nx: y\r\n\r\n<431>");
    }
}
