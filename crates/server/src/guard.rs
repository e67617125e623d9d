//! What keeps the server safe on the open web: security headers on every response, game
//! sockets that open only from the site's own pages, and connections that stop talking closed
//! (a silent connection would otherwise hold a file descriptor forever).

use axum::extract::Request;
use axum::http::{HeaderMap, HeaderValue, header};
use axum::middleware::Next;
use axum::response::Response;
use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::time::{Instant, Sleep};

/// The content security policy: everything from the site itself (scripts as modules, styles
/// from its CSS files, the game socket on the same host), images also as data URLs, no
/// plugins, and no framing by other sites.
pub const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self'; \
    img-src 'self' data:; font-src 'self'; connect-src 'self'; object-src 'none'; \
    base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// Adds the security headers to every response.
pub async fn headers(req: Request, next: Next) -> Response {
    let mut res = next.run(req).await;
    let h = res.headers_mut();
    h.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CSP));
    h.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    h.insert(header::REFERRER_POLICY, HeaderValue::from_static("same-origin"));
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    res
}

/// Whether a game socket may open for this handshake. A browser always says which page asks
/// (`Origin`); it must be the site itself (the host the browser asked for, or the one a proxy
/// says it asked for in `X-Forwarded-Host`) or one of `allowed`. A client that is not a
/// browser sends no `Origin` and carries no one else's cookie, so it is let through.
pub fn origin_allowed(headers: &HeaderMap, allowed: &[String]) -> Result<(), String> {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return Ok(());
    };
    let origin = origin.to_str().map_err(|_| "the Origin header is not plain text".to_string())?;
    let host = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    let own = |h: &str| origin == format!("http://{h}") || origin == format!("https://{h}");
    if host("host").is_some_and(own)
        || host("x-forwarded-host").is_some_and(own)
        || allowed.iter().any(|a| a.trim_end_matches('/').eq_ignore_ascii_case(origin))
    {
        return Ok(());
    }
    Err(format!(
        "a game's socket opens only from the site's own pages: {origin} is not {}; a site \
         behind a proxy can be allowed with --allowed-origin",
        host("host").map_or("this site".to_string(), |h| format!("http://{h}"))
    ))
}

/// Accepts TCP connections that are closed when they stay silent: no first byte within
/// `first` (a connection that never sends its request), or nothing read for `idle` after that
/// (a kept-alive or upgraded connection whose peer is gone; game sockets are pinged more often
/// than that, so a live browser always answers in time).
pub struct TimedListener {
    inner: TcpListener,
    first: Duration,
    idle: Duration,
}

impl TimedListener {
    /// Wraps `inner`.
    pub fn new(inner: TcpListener, first: Duration, idle: Duration) -> TimedListener {
        TimedListener { inner, first, idle }
    }
}

/// The address a connection comes from (what handlers see as `ConnectInfo<Peer>`).
#[derive(Clone, Copy, Debug)]
pub struct Peer(pub SocketAddr);

impl axum::serve::Listener for TimedListener {
    type Io = TimedIo;
    type Addr = Peer;

    async fn accept(&mut self) -> (TimedIo, Peer) {
        let (io, addr) = axum::serve::Listener::accept(&mut self.inner).await;
        let deadline = Box::pin(tokio::time::sleep(self.first));
        (TimedIo { io, deadline, idle: self.idle }, Peer(addr))
    }

    fn local_addr(&self) -> io::Result<Peer> {
        self.inner.local_addr().map(Peer)
    }
}

impl axum::extract::connect_info::Connected<axum::serve::IncomingStream<'_, TimedListener>>
    for Peer
{
    fn connect_info(stream: axum::serve::IncomingStream<'_, TimedListener>) -> Peer {
        *stream.remote_addr()
    }
}

/// A connection whose reads fail with `TimedOut` once it has been silent too long.
pub struct TimedIo {
    io: TcpStream,
    deadline: Pin<Box<Sleep>>,
    idle: Duration,
}

impl AsyncRead for TimedIo {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        match Pin::new(&mut self.io).poll_read(cx, buf) {
            Poll::Ready(r) => {
                if buf.filled().len() > before {
                    let next = Instant::now() + self.idle;
                    self.deadline.as_mut().reset(next);
                }
                Poll::Ready(r)
            }
            Poll::Pending => match self.deadline.as_mut().poll(cx) {
                Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    "the connection was silent too long",
                ))),
                Poll::Pending => Poll::Pending,
            },
        }
    }
}

impl AsyncWrite for TimedIo {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.io).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.io).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn handshake(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.insert(*k, v.parse().unwrap_or_else(|_| HeaderValue::from_static("")));
        }
        h
    }

    #[test]
    fn only_the_sites_own_pages_open_a_socket() {
        let none: &[String] = &[];
        // The page the server served.
        assert!(
            origin_allowed(
                &handshake(&[("host", "127.0.0.1:8080"), ("origin", "http://127.0.0.1:8080")]),
                none
            )
            .is_ok()
        );
        // No Origin: not a browser.
        assert!(origin_allowed(&handshake(&[("host", "127.0.0.1:8080")]), none).is_ok());
        // Another port of the same host is another site.
        let e = origin_allowed(
            &handshake(&[("host", "127.0.0.1:8080"), ("origin", "http://127.0.0.1:9999")]),
            none,
        )
        .unwrap_err();
        assert!(e.contains("http://127.0.0.1:9999 is not http://127.0.0.1:8080"), "{e}");
        // Behind a proxy: the host the browser asked for.
        let proxied = handshake(&[
            ("host", "127.0.0.1:8080"),
            ("x-forwarded-host", "doska.example"),
            ("origin", "https://doska.example"),
        ]);
        assert!(origin_allowed(&proxied, none).is_ok());
        // Or an origin the operator allowed.
        let other = handshake(&[("host", "10.0.0.5:8080"), ("origin", "https://play.example")]);
        assert!(origin_allowed(&other, none).is_err());
        assert!(origin_allowed(&other, &["https://play.example/".to_string()]).is_ok());
    }
}
