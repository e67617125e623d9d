//! What the benchmark clients share: one HTTP request, and a game socket whose latest state
//! a reader task keeps.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use futures_util::StreamExt;
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::{Mutex, watch};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

/// One request: the body and the cookie set, if any.
pub async fn http(
    addr: &str,
    method: &str,
    path: &str,
    cookie: &str,
    body: &str,
) -> (String, Option<String>) {
    let mut s = TcpStream::connect(addr).await.expect("connect");
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nCookie: {cookie}\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let mut raw = String::new();
    s.read_to_string(&mut raw).await.unwrap();
    let (head, body) = raw.split_once("\r\n\r\n").unwrap_or((&raw, ""));
    let cookie = head
        .lines()
        .find_map(|l| l.strip_prefix("set-cookie: "))
        .map(|c| c.split(';').next().unwrap_or("").to_string());
    (body.to_string(), cookie)
}

pub type Sink = futures_util::stream::SplitSink<
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>,
    Message,
>;

/// One socket: its sending half, and the latest state its reader saw.
pub struct Side {
    pub sink: Mutex<Sink>,
    pub state: watch::Receiver<Value>,
}

/// Opens a game socket with a cookie.
pub async fn open(addr: &str, id: &str, cookie: &str) -> Side {
    let mut req = format!("ws://{addr}/api/games/{id}/ws").into_client_request().unwrap();
    req.headers_mut().insert("Cookie", cookie.parse().unwrap());
    let (ws, _) = tokio_tungstenite::connect_async(req).await.expect("socket");
    let (sink, mut stream) = ws.split();
    let (tx, rx) = watch::channel(Value::Null);
    tokio::spawn(async move {
        while let Some(Ok(m)) = stream.next().await {
            if let Message::Text(t) = m {
                let v: Value = serde_json::from_str(t.as_str()).unwrap_or(Value::Null);
                if v["type"] == "state" {
                    let _ = tx.send(v);
                }
            }
        }
    });
    Side { sink: Mutex::new(sink), state: rx }
}
