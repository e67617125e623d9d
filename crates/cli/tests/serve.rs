//! `doska serve` as a process: it prints its address, serves, is killed with SIGKILL, and a new
//! process on the same database file continues every game.
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn start(db: &str) -> (Child, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_doska"))
        .args(["serve", "--addr", "127.0.0.1:0", "--database-url", db, "--engine-scale", "0.05"])
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let addr = line.split("http://").nth(1).unwrap().split_whitespace().next().unwrap().to_string();
    (child, addr)
}

/// One request; (status, body, the cookie set if any).
fn http(
    addr: &str,
    method: &str,
    path: &str,
    cookie: &str,
    body: &str,
) -> (u16, String, Option<String>) {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nCookie: {cookie}\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut raw = String::new();
    s.read_to_string(&mut raw).unwrap();
    let (head, body) = raw.split_once("\r\n\r\n").unwrap();
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    let cookie = head
        .lines()
        .find_map(|l| l.strip_prefix("set-cookie: "))
        .map(|c| c.split(';').next().unwrap().to_string());
    (status, body.to_string(), cookie)
}

fn field(json: &str, key: &str) -> serde_json::Value {
    serde_json::from_str::<serde_json::Value>(json).unwrap()[key].clone()
}

#[test]
fn serves_and_survives_a_kill() {
    let dir = std::env::temp_dir().join(format!("doska-serve-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = format!("sqlite://{}?mode=rwc", dir.join("doska.sqlite").display());

    let (mut first, addr) = start(&db);
    assert_eq!(http(&addr, "GET", "/healthz", "", "").1, "ok\n");
    let (status, body, cookie) = http(
        &addr,
        "POST",
        "/api/games",
        "",
        r#"{"rules": "russian", "opponent": "computer", "level": "easy", "color": "black"}"#,
    );
    assert_eq!(status, 201, "{body}");
    let cookie = cookie.unwrap();
    let id = field(&body, "id").as_str().unwrap().to_string();
    // The engine has White and answers on its own.
    let deadline = Instant::now() + Duration::from_secs(20);
    let moves = loop {
        let (_, state, _) = http(&addr, "GET", &format!("/api/games/{id}"), &cookie, "");
        if field(&state, "plies") == 1 {
            break field(&state, "moves");
        }
        assert!(Instant::now() < deadline, "the computer did not move");
        std::thread::sleep(Duration::from_millis(50));
    };
    first.kill().unwrap();
    first.wait().unwrap();

    let (mut second, addr) = start(&db);
    let (status, state, _) = http(&addr, "GET", &format!("/api/games/{id}"), &cookie, "");
    assert_eq!(status, 200, "{state}");
    assert_eq!((field(&state, "moves"), field(&state, "you")), (moves, "black".into()));
    let (_, list, _) = http(&addr, "GET", "/api/games", &cookie, "");
    assert_eq!(field(&list, "unfinished")[0]["id"], id.as_str());
    second.kill().unwrap();
    second.wait().unwrap();
    std::fs::remove_dir_all(&dir).ok();
}
