//! A real server on a free port over a temporary SQLite file, a small HTTP client and a
//! WebSocket client, for the integration tests.
#![allow(dead_code, clippy::panic, clippy::unwrap_used, clippy::expect_used)]

use doska_server::{AppState, Computer, Config, RandomMover};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

pub const WAIT: Duration = Duration::from_secs(20);

/// A temporary database file, removed at the end.
pub struct Db {
    pub dir: PathBuf,
}

impl Db {
    pub fn new() -> Db {
        let n =
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos();
        let dir =
            std::env::temp_dir().join(format!("doska-server-test-{n:x}-{}", rand::random::<u32>()));
        std::fs::create_dir_all(&dir).unwrap();
        Db { dir }
    }

    pub fn url(&self) -> String {
        format!("sqlite://{}?mode=rwc", self.dir.join("doska.sqlite").display())
    }
}

impl Drop for Db {
    fn drop(&mut self) {
        std::fs::remove_dir_all(&self.dir).ok();
    }
}

pub fn test_config() -> Config {
    // The creation limits are tested on their own (tests/fairness.rs); the other tests create
    // games as fast as they like.
    Config {
        seed: Some(7),
        claim_after: Duration::from_millis(300),
        games_per_minute: 0,
        games_per_minute_per_address: 0,
        ..Config::default()
    }
}

/// A running server.
pub struct Server {
    pub addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    task: tokio::task::JoinHandle<std::io::Result<()>>,
}

impl Server {
    pub async fn start(db: &Db) -> Server {
        Server::start_with(&db.url(), Arc::new(RandomMover), test_config()).await
    }

    pub async fn start_with(url: &str, computer: Arc<dyn Computer>, config: Config) -> Server {
        let store = doska_store::open(url).await.unwrap();
        let state = AppState::new(store, computer, config).await.unwrap();
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let task = tokio::spawn(doska_server::serve(listener, state, async move {
            let _ = stopped.await;
        }));
        Server { addr, stop: Some(stop), task }
    }

    /// Shuts down gracefully (sockets are told the server is going away).
    pub async fn stop(mut self) {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
        tokio::time::timeout(WAIT, &mut self.task).await.unwrap().unwrap().unwrap();
    }

    pub fn browser(&self) -> Browser {
        Browser { addr: self.addr, cookie: None }
    }
}

/// An HTTP response.
#[derive(Debug)]
pub struct Resp {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Resp {
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("{e}: {}", self.body))
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }
}

/// One browser: keeps the identity cookie it is given.
#[derive(Clone, Debug)]
pub struct Browser {
    pub addr: SocketAddr,
    pub cookie: Option<String>,
}

impl Browser {
    pub fn at(&self, server: &Server) -> Browser {
        Browser { addr: server.addr, cookie: self.cookie.clone() }
    }

    pub async fn request(&mut self, method: &str, path: &str, body: Option<&str>) -> Resp {
        let mut stream = TcpStream::connect(self.addr).await.unwrap();
        let mut req =
            format!("{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n", self.addr);
        if let Some(c) = &self.cookie {
            req.push_str(&format!("Cookie: {c}\r\n"));
        }
        if let Some(b) = body {
            req.push_str(&format!(
                "Content-Type: application/json\r\nContent-Length: {}\r\n",
                b.len()
            ));
        }
        req.push_str("\r\n");
        if let Some(b) = body {
            req.push_str(b);
        }
        stream.write_all(req.as_bytes()).await.unwrap();
        let mut raw = Vec::new();
        tokio::time::timeout(WAIT, stream.read_to_end(&mut raw)).await.unwrap().unwrap();
        let text = String::from_utf8_lossy(&raw).to_string();
        let (head, body) = text.split_once("\r\n\r\n").unwrap();
        let mut lines = head.lines();
        let status = lines.next().unwrap().split(' ').nth(1).unwrap().parse().unwrap();
        let headers: Vec<(String, String)> = lines
            .filter_map(|l| l.split_once(':'))
            .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
            .collect();
        let chunked = headers
            .iter()
            .any(|(k, v)| k.eq_ignore_ascii_case("transfer-encoding") && v == "chunked");
        let body = if chunked { dechunk(body) } else { body.to_string() };
        for (k, v) in &headers {
            if k.eq_ignore_ascii_case("set-cookie") {
                self.cookie = Some(v.split(';').next().unwrap().to_string());
            }
        }
        Resp { status, headers, body }
    }

    pub async fn get(&mut self, path: &str) -> Resp {
        self.request("GET", path, None).await
    }

    pub async fn post(&mut self, path: &str, body: &Value) -> Resp {
        self.request("POST", path, Some(&body.to_string())).await
    }

    /// Creates a game; answers the creation JSON.
    pub async fn create(&mut self, body: Value) -> Value {
        let r = self.post("/api/games", &body).await;
        assert_eq!(r.status, 201, "{}", r.body);
        r.json()
    }

    /// Opens the game's socket (with the cookie, and `?seat=` when given).
    pub async fn socket(&self, id: &str, seat: Option<&str>) -> Socket {
        let url = match seat {
            Some(s) => format!("ws://{}/api/games/{id}/ws?seat={s}", self.addr),
            None => format!("ws://{}/api/games/{id}/ws", self.addr),
        };
        let mut req = url.into_client_request().unwrap();
        if let Some(c) = &self.cookie {
            req.headers_mut().insert("Cookie", c.parse().unwrap());
        }
        let (ws, _) = tokio_tungstenite::connect_async(req).await.unwrap();
        let mut s = Socket { ws, state: Value::Null, you: String::new() };
        let hello = s.next().await.unwrap();
        assert_eq!(hello["type"], "hello", "{hello}");
        s.you = hello["you"].as_str().unwrap().to_string();
        s.state = s.next().await.unwrap();
        assert_eq!(s.state["type"], "state");
        s
    }
}

fn dechunk(mut body: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = body.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 {
            break;
        }
        out.push_str(&rest[..n]);
        body = &rest[n + 2..];
    }
    out
}

type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

/// A game socket.
pub struct Socket {
    pub ws: Ws,
    /// The latest state seen.
    pub state: Value,
    /// `white`, `black`, `both` or `spectator`.
    pub you: String,
}

impl Socket {
    /// The next JSON message; none once closed.
    pub async fn next(&mut self) -> Option<Value> {
        loop {
            let msg = tokio::time::timeout(WAIT, self.ws.next()).await.expect("no message in time");
            match msg {
                Some(Ok(Message::Text(t))) => {
                    let v: Value = serde_json::from_str(t.as_str()).unwrap();
                    if v["type"] == "state" {
                        self.state = v.clone();
                    }
                    return Some(v);
                }
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return None,
                Some(Ok(_)) => {}
            }
        }
    }

    pub async fn send(&mut self, v: Value) {
        self.ws.send(Message::Text(v.to_string().into())).await.unwrap();
    }

    /// Sends; false if the socket is gone.
    pub async fn try_send(&mut self, v: Value) -> bool {
        self.ws.send(Message::Text(v.to_string().into())).await.is_ok()
    }

    pub async fn send_raw(&mut self, text: &str) {
        self.ws.send(Message::Text(text.to_string().into())).await.unwrap();
    }

    /// Reads until a state satisfying `ok`; panics on an error message.
    pub async fn state_where(&mut self, ok: impl Fn(&Value) -> bool) -> Value {
        if ok(&self.state) {
            return self.state.clone();
        }
        loop {
            let v = self.next().await.expect("socket closed while waiting for a state");
            match v["type"].as_str() {
                Some("state") if ok(&v) => return v,
                Some("error") => panic!("unexpected error: {v}"),
                _ => {}
            }
        }
    }

    /// Reads until an error message (states are skipped); its text.
    pub async fn error(&mut self) -> String {
        loop {
            let v = self.next().await.expect("socket closed while waiting for an error");
            if v["type"] == "error" {
                return v["message"].as_str().unwrap().to_string();
            }
        }
    }

    /// Plays a move by text and waits for the state that shows it.
    pub async fn play(&mut self, text: &str) -> Value {
        let plies = self.state["plies"].as_u64().unwrap();
        self.send(json!({"type": "move", "text": text})).await;
        self.state_where(|s| s["plies"].as_u64().unwrap() > plies || s["status"] != "playing").await
    }

    /// Sends an action expected to fail; the error's text.
    pub async fn refused(&mut self, v: Value) -> String {
        self.send(v).await;
        self.error().await
    }
}

/// A friend game: alice (white) on `one`, bob (black) on `two`, both connected.
pub async fn friends(one: Browser, two: Browser) -> (String, Browser, Browser, Socket, Socket) {
    let (mut alice, mut bob) = (one, two);
    let created =
        alice.create(json!({"rules": "russian", "opponent": "friend", "color": "white"})).await;
    let id = created["id"].as_str().unwrap().to_string();
    let joined =
        bob.post(&format!("/api/games/{id}/join"), &json!({"invite": created["invite"]})).await;
    assert_eq!(joined.status, 200, "{}", joined.body);
    let mut a = alice.socket(&id, None).await;
    let b = bob.socket(&id, None).await;
    a.state_where(|s| s["status"] == "playing").await;
    (id, alice, bob, a, b)
}

/// The body of a test that is not one on its own: run as a child process (by
/// [`spawn_child`]), it serves the database the environment variable `var` names, prints its
/// address and serves until killed (a real SIGKILL of a real server).
pub async fn serve_as_child(var: &str, config: Config) {
    let Ok(url) = std::env::var(var) else { return };
    let server = Server::start_with(&url, Arc::new(RandomMover), config).await;
    println!("CHILD-ADDR {}", server.addr);
    tokio::time::sleep(Duration::from_secs(600)).await;
}

/// Runs this test binary's test `test` (a [`serve_as_child`]) as a child process serving `url`;
/// the child and its address.
pub fn spawn_child(test: &str, var: &str, url: &str) -> (std::process::Child, SocketAddr) {
    use std::io::BufRead;
    let mut child = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", test, "--nocapture", "--test-threads", "1"])
        .env(var, url)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let out = std::io::BufReader::new(child.stdout.take().unwrap());
    let addr = out
        .lines()
        .map_while(Result::ok)
        .find_map(|l| l.split("CHILD-ADDR ").nth(1).map(|a| a.trim().parse().unwrap()))
        .expect("the child server printed no address");
    (child, addr)
}

/// Whether it is `you`'s turn in a state.
pub fn my_turn(state: &Value, you: &str) -> bool {
    state["status"] == "playing" && (you == "both" || state["turn"] == you)
}
