//! The CLI contract other tools rely on: `doska perft` and `doska moves` output, errors on
//! stderr with a non-zero status.

#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

use std::process::Command;

fn doska(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_doska"))
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("running doska: {e}"));
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

#[test]
fn perft_json() {
    let (ok, out, _) = doska(&["perft", "--variant", "russian", "--depth", "4", "--json"]);
    assert!(ok);
    let v = json(&out);
    assert_eq!(v["variant"], "russian");
    assert_eq!(v["depth"], 4);
    assert_eq!(v["nodes"], 1469);
    assert!(v["fen"].as_str().is_some_and(|f| f.starts_with("W:W")));
    assert!(v["seconds"].as_f64().is_some());
}

#[test]
fn perft_divide_sums_to_the_total() {
    let (ok, out, _) = doska(&["perft", "--variant", "international", "--depth", "3", "--divide"]);
    assert!(ok);
    let mut sum = 0;
    let mut total = 0;
    for line in out.lines() {
        let (m, n) = line.split_once(' ').unwrap_or(("", "0"));
        let n: u64 = n.parse().unwrap_or(0);
        if m == "total" {
            total = n;
        } else {
            sum += n;
        }
    }
    assert_eq!((sum, total), (658, 658));
}

#[test]
fn moves_json_contract() {
    let fen = "W:Wc3,h2:Bd4,f4,b6";
    let (ok, out, _) = doska(&["moves", "--variant", "russian", "--fen", fen, "--json"]);
    assert!(ok);
    let v = json(&out);
    assert_eq!(v["turn"], "white");
    assert!(v["outcome"].is_null());
    let moves = v["moves"].as_array().cloned().unwrap_or_default();
    assert_eq!(moves.len(), 1, "{out}");
    let m = &moves[0];
    assert_eq!(m["notation"], "c3:e5:g3");
    assert_eq!(m["from"], "c3");
    assert_eq!(m["to"], "g3");
    assert_eq!(m["path"], serde_json::json!(["c3", "e5", "g3"]));
    assert_eq!(m["captures"], serde_json::json!(["d4", "f4"]));
    assert_eq!(m["fen"], "B:Wh2,g3:Bb6");
}

#[test]
fn moves_json_uses_algebraic_squares_in_numbered_rule_sets() {
    let (ok, out, _) = doska(&["moves", "--variant", "international", "--json"]);
    assert!(ok);
    let v = json(&out);
    let first = &v["moves"][0];
    assert!(first["notation"].as_str().is_some_and(|n| n.contains('-')));
    assert!(first["from"].as_str().is_some_and(|s| s.starts_with(char::is_alphabetic)));
}

#[test]
fn outcome_is_reported() {
    let (ok, out, _) = doska(&["moves", "--variant", "russian", "--fen", "B:Wc3:B", "--json"]);
    assert!(ok);
    let v = json(&out);
    assert_eq!(v["outcome"]["result"], "white");
    assert_eq!(v["outcome"]["reason"], "no pieces left");
    assert_eq!(v["moves"], serde_json::json!([]));
}

#[test]
fn errors_go_to_stderr_with_a_failure_status() {
    let (ok, out, err) = doska(&["perft", "--variant", "chess", "--depth", "2"]);
    assert!(!ok);
    assert!(out.is_empty());
    assert!(err.contains("unknown rule set \"chess\""), "{err}");
    let (ok, _, err) = doska(&["moves", "--variant", "russian", "--fen", "W:Wz9:B"]);
    assert!(!ok);
    assert!(err.contains("off the board"), "{err}");
}

#[test]
fn ugolki_through_the_same_contract() {
    let (ok, out, _) = doska(&["perft", "--variant", "ugolki", "--depth", "3", "--json"]);
    assert!(ok);
    assert_eq!(json(&out)["nodes"], 2784);
    // A forced pass is the single move "pass".
    let fen = "W:Wa1:Bb1,a2,c1,a3,h8";
    let (ok, out, _) = doska(&["moves", "--variant", "ugolki", "--fen", fen, "--json"]);
    assert!(ok);
    let v = json(&out);
    assert_eq!(
        v["moves"],
        serde_json::json!([{"notation": "pass", "from": null, "to": null, "path": [],
            "captures": [], "fen": "B:Wa1:Bb1,c1,a2,a3,h8:N1"}])
    );
    // A jump chain gives one shortest path.
    let fen = "W:Wa1,b1:Bc1,d2:N3";
    let (ok, out, _) = doska(&["moves", "--variant", "ugolki", "--fen", fen, "--json"]);
    assert!(ok);
    let v = json(&out);
    let chain = v["moves"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|m| m["notation"] == "b1-d3")
        .cloned()
        .unwrap_or_default();
    assert_eq!(chain["path"], serde_json::json!(["b1", "d1", "d3"]));
    // Canonical rule set text and a clear error for a bad one.
    let (ok, out, _) =
        doska(&["perft", "--variant", "ugolki:dirs=8,board=8", "--depth", "1", "--json"]);
    assert!(ok);
    assert_eq!(json(&out)["variant"], "ugolki:dirs=8");
    let (ok, _, err) = doska(&["perft", "--variant", "ugolki:board=9", "--depth", "1"]);
    assert!(!ok);
    assert!(err.contains("expected 8 or 10"), "{err}");
}

/// What `doska hub` with `args` writes for the lines of `script`.
fn hub_session(args: &[&str], script: &str) -> String {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_doska"))
        .arg("hub")
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(script.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn hub_protocol_plays_a_move() {
    let script = "hub\ninit\nnew-game\npos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww moves=\"32-28 19-23\"\nlevel depth=4\ngo think\nping\nquit\n";
    let text = hub_session(&[], script);
    assert!(text.contains("id name=doska"), "{text}");
    assert!(text.contains("\nwait\n") && text.contains("\nready\n"), "{text}");
    assert!(text.contains("\npong\n"), "{text}");
    // After 32-28 19-23 White must capture: 28x19 takes 23.
    assert!(text.contains("done move=28x19x23"), "{text}");
}

/// doska's Hub extensions, which the match runner uses to keep one doska process a game: any
/// rule set, a start FEN with counters, moves in the rule set's notation, the move said in
/// that notation too; and bad input answered with an error line that names it.
#[test]
fn hub_extensions_for_every_rule_set() {
    let script = "hub\nset-param name=variant value=russian\ninit\n\
        pos fen=W:We3,a1:Be5,h8:H3 moves=\"e3-d4\"\nlevel depth=3\ngo think\n\
        pos fen=W:Wc3:Bd4 moves=\"c3-b4\"\n\
        pos fen=W:Wz9\n\
        set-param name=variant value=chess\nquit\n";
    let text = hub_session(&["--without", "aspiration"], script);
    // After e3-d4 Black's one move is the capture e5:c3, said in both notations.
    assert!(text.contains("notation=e5:c3"), "{text}");
    assert!(text.contains("depth="), "{text}");
    assert!(text.contains("error illegal move c3-b4"), "{text}");
    assert!(text.contains("error bad FEN \"W:Wz9\""), "{text}");
    assert!(text.contains("error unknown variant \"chess\""), "{text}");
}

/// A game clock as Scan's Hub reads it (`level time= inc= moves=`): the move is searched on
/// its share of the clock, and a clock that cannot be read is answered with an error that
/// says what is accepted (the level before it stays).
#[test]
fn hub_plays_on_a_game_clock() {
    let script = "hub\nset-param name=variant value=american\ninit\npos moves=\"11-15\"\n\
        level time=abc\nlevel moves=-1\nlevel time=0.4 inc=0.05\ngo think\nquit\n";
    let text = hub_session(&[], script);
    assert!(text.contains("error bad time=\"abc\": seconds, a number 0 or more"), "{text}");
    assert!(text.contains("error bad moves=\"-1\""), "{text}");
    assert!(text.contains("info depth="), "{text}");
    assert!(text.contains("done move="), "{text}");
}

/// The hash table's size is the hub's to set (`--table-mb`, as Cake's and Scan's are theirs):
/// a bigger one plays as the default does, and a size out of range is refused with the range.
#[test]
fn hub_takes_the_size_of_its_hash_table() {
    let script =
        "hub\nset-param name=variant value=american\ninit\nlevel depth=6\ngo think\nquit\n";
    let text = hub_session(&["--table-mb", "64"], script);
    assert!(text.contains("done move="), "{text}");
    let (ok, _, err) = doska(&["hub", "--table-mb", "0"]);
    assert!(!ok);
    assert!(err.contains("0 is not in 1..=4096"), "{err}");
}

/// Every FEN doska writes carries the counters the rule set needs: a game driven by chaining
/// the FENs of `doska moves --json` reaches the counter draws.
#[test]
fn each_moves_fen_carries_the_counters() {
    for (variant, fen, counter) in
        [("russian", "W:WKa1,Kc1:BKh8:H29", ":H30"), ("frisian", "W:WK46,K47:BK5:E13", ":E14")]
    {
        let (ok, out, err) = doska(&["moves", "--variant", variant, "--fen", fen, "--json"]);
        assert!(ok, "{err}");
        let v = json(&out);
        let moves = v["moves"].as_array().unwrap();
        assert!(!moves.is_empty());
        for m in moves {
            let after = m["fen"].as_str().unwrap();
            assert!(after.contains(counter), "{variant} {fen}: {} gives {after}", m["notation"]);
        }
    }
    // Chained: the FEN of a move, read back, is the position with the same counters.
    let (ok, out, _) =
        doska(&["moves", "--variant", "russian", "--fen", "W:WKa1,Kc1:BKh8:H29", "--json"]);
    assert!(ok);
    let next = json(&out)["moves"][0]["fen"].as_str().unwrap().to_string();
    let (ok, out, _) = doska(&["moves", "--variant", "russian", "--fen", &next, "--json"]);
    assert!(ok);
    let v = json(&out);
    assert_eq!(v["fen"].as_str(), Some(next.as_str()));
}

/// Depths that could never finish are refused with the limit, before any work.
#[test]
fn perft_depth_limit() {
    for (variant, depth) in [("russian", "4294967295"), ("ugolki", "100000"), ("russian", "31")] {
        let (ok, out, err) = doska(&["perft", "--variant", variant, "--depth", depth]);
        assert!(!ok && out.is_empty(), "{variant} {depth}");
        assert!(err.contains("0..=30"), "{err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    let (ok, _, err) = doska(&["perft", "--variant", "ugolki", "--depth", "0"]);
    assert!(ok, "{err}");
}

/// A reader that stops early (`| head`) ends the command quietly.
#[test]
fn broken_pipe_is_quiet() {
    use std::io::Read;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_doska"))
        .args(["perft", "--variant", "international", "--depth", "2", "--divide"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Close the reading end at once: every write fails with a broken pipe.
    drop(child.stdout.take());
    let status = child.wait().unwrap();
    let mut err = String::new();
    child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    assert!(err.is_empty(), "{err}");
    assert!(status.success(), "{status:?}");
}

/// Each error is said once, and a Lasca column too tall for the game says so.
#[test]
fn errors_said_once_and_exactly() {
    let (ok, _, err) =
        doska(&["perft", "--variant", "russian", "--fen", "W:Wz9:Ba1", "--depth", "1"]);
    assert!(!ok);
    assert_eq!(err.matches("off the board").count(), 1, "{err}");
    let tall = format!("W:Wa1/{}:Bg7", "b".repeat(22));
    let (ok, _, err) = doska(&["perft", "--variant", "lasca", "--fen", &tall, "--depth", "1"]);
    assert!(!ok);
    assert!(err.contains("holds at most 21") && !err.contains("only Lasca"), "{err}");
    let (ok, _, err) =
        doska(&["perft", "--variant", "russian", "--fen", "W:Wa1/bw:Bh8", "--depth", "1"]);
    assert!(!ok);
    assert!(err.contains("only Lasca has columns"), "{err}");
}

/// `--without` takes evaluation terms and search techniques by name; an unknown name is
/// refused with both lists.
#[test]
fn analyze_without_terms_and_techniques() {
    let (ok, out, err) = doska(&[
        "analyze",
        "--variant",
        "russian",
        "--depth",
        "4",
        "--without",
        "spend,centre",
        "--json",
    ]);
    assert!(ok, "{err}");
    assert_eq!(json(&out)["depth"], 4);
    let (ok, _, err) =
        doska(&["analyze", "--variant", "russian", "--depth", "4", "--without", "nonsense"]);
    assert!(!ok);
    assert!(
        err.contains("\"nonsense\"") && err.contains("centre") && err.contains("spend"),
        "{err}"
    );
}

/// `--weights FILE`: the search evaluates with that file (one of the rule set's board: a
/// borrower takes its owner's); a file of another board, or none there, is refused by name.
#[test]
fn analyze_with_a_weights_file() {
    let weights =
        |name: &str| format!("{}/../engine/weights/{name}.eval", env!("CARGO_MANIFEST_DIR"));
    let analyze = |variant: &str, file: &str| {
        doska(&["analyze", "--variant", variant, "--depth", "6", "--weights", file, "--json"])
    };
    let (ok, out, err) = analyze("brazilian", &weights("russian"));
    assert!(ok, "{err}");
    assert_eq!(json(&out)["depth"], 6);
    // The embedded file gives the embedded evaluation's search, node for node.
    let (_, plain, _) = doska(&["analyze", "--variant", "russian", "--depth", "6", "--json"]);
    let (ok, out, err) = analyze("russian", &weights("russian"));
    assert!(ok, "{err}");
    assert_eq!(json(&out)["nodes"], json(&plain)["nodes"]);
    assert_eq!(json(&out)["score"], json(&plain)["score"]);
    let (ok, _, err) = analyze("russian", &weights("international"));
    assert!(!ok && err.contains("international.eval") && err.contains("board"), "{err}");
    let (ok, _, err) = analyze("russian", "/nonexistent.eval");
    assert!(!ok && err.contains("/nonexistent.eval"), "{err}");
}

/// A technique the rule set's search never uses is accepted with a note that says so (and
/// which rule sets do use it); where it is used, nothing is noted.
#[test]
fn without_a_technique_the_rule_set_lacks_is_noted() {
    let analyze = |variant: &str, without: &str| {
        let (ok, _, err) =
            doska(&["analyze", "--variant", variant, "--depth", "3", "--without", without]);
        assert!(ok, "{err}");
        err
    };
    let err = analyze("czech", "truncation");
    assert!(err.contains("czech never truncates") && err.contains("american, russian"), "{err}");
    assert!(!analyze("american", "truncation").contains("note:"));
    let err = analyze("american", "net");
    assert!(err.contains("american has no network") && err.contains("international"), "{err}");
    assert!(!analyze("international", "net").contains("note:"));
    let err = analyze("ugolki", "probcut,truncation");
    assert!(err.contains("prunes no bad moves") && err.contains("without them"), "{err}");
    let (ok, _, err) = doska(&[
        "match",
        "--variant",
        "czech",
        "--a",
        "easy",
        "--b",
        "easy",
        "--b-without",
        "truncation",
        "--games",
        "2",
        "--scale",
        "0.01",
    ]);
    assert!(ok && err.contains("czech never truncates"), "{err}");
}

/// `--multipv N`: N lines, best first, each with its score, value in units, depth and line;
/// Ugolki's values are race moves.
#[test]
fn analyze_multipv_lines() {
    let (ok, out, err) = doska(&[
        "analyze",
        "--variant",
        "russian",
        "--fen",
        "W:Wa1,e3,f4:Bc5,a7,h8",
        "--depth",
        "6",
        "--multipv",
        "4",
        "--json",
    ]);
    assert!(ok, "{err}");
    let v = json(&out);
    let lines = v["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 4, "{v}");
    let scores: Vec<i64> = lines.iter().map(|l| l["score"].as_i64().unwrap()).collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{v}");
    assert_eq!(lines[0]["pv"][0], v["best"]);
    // The four moves are the four legal ones; giving two men away comes last.
    assert_eq!(lines[3]["pv"][0], "e3-d4", "{v}");
    assert!(lines[3]["value"].as_f64().unwrap() <= -1.5, "{v}");
    assert_eq!((v["unit"].as_str(), lines[0]["depth"].as_u64()), (Some("man"), Some(6)));
    let (ok, out, err) = doska(&[
        "analyze",
        "--variant",
        "ugolki",
        "--fen",
        "W:Wg5,f6,g6,e7,g7,e8,f8,g8,h8:Ba1,c1,d1,a2,a3,b3,d3,b4,d5:N31",
        "--depth",
        "3",
        "--multipv",
        "2",
        "--json",
    ]);
    assert!(ok, "{err}");
    assert_eq!(json(&out)["unit"], "race-move");
    let (ok, _, err) = doska(&["analyze", "--variant", "russian", "--multipv", "0"]);
    assert!(!ok && err.contains("multipv"), "{err}");
}

#[test]
fn egdb_build_verify_probe_and_analyze_with_it() {
    let dir = std::env::temp_dir().join(format!("doska-cli-egdb-{}", std::process::id()));
    let d = dir.to_str().unwrap();
    let (ok, out, err) =
        doska(&["egdb", "build", "--variant", "american", "--pieces", "3", "--dir", d]);
    assert!(ok, "{err}");
    assert!(out.contains("2 kings v 1 king") && out.contains("american.egdb"), "{out}");
    let (ok, out, err) = doska(&["egdb", "verify", "--variant", "american", "--dir", d]);
    assert!(ok && out.contains(", 0 disagree"), "{out}{err}");
    let (ok, out, _) =
        doska(&["egdb", "probe", "--variant", "american", "--dir", d, "--fen", "W:WK18,K19:BK1"]);
    assert!(ok);
    assert_eq!(out.trim(), "win in 21 plies");
    // analyze reads the folder and gives the exact value beside its search.
    let (ok, out, err) = doska(&[
        "analyze",
        "--variant",
        "american",
        "--fen",
        "B:WK18,K19:BK1",
        "--depth",
        "3",
        "--json",
        "--egdb",
        d,
    ]);
    assert!(ok, "{err}");
    let v = json(&out);
    assert_eq!(v["egdb"], serde_json::json!({"result": "loss", "plies": 22}), "{v}");
    assert_eq!(v["score"], -(30_000 - 22), "{v}");
    // Errors say what was wrong and what is accepted.
    let (ok, _, err) = doska(&[
        "egdb",
        "probe",
        "--variant",
        "american",
        "--dir",
        d,
        "--fen",
        "W:WK18,K19,K20:BK1",
    ]);
    assert!(!ok && err.contains("2 to 3 pieces"), "{err}");
    let (ok, _, err) =
        doska(&["egdb", "probe", "--variant", "russian", "--dir", d, "--fen", "W:Wc3:Bh8"]);
    assert!(!ok && err.contains("doska egdb build --variant russian"), "{err}");
    let (ok, _, err) = doska(&["egdb", "build", "--variant", "frisian", "--dir", d]);
    assert!(!ok && err.contains("frisian has no endgame database"), "{err}");
    let (ok, _, err) =
        doska(&["egdb", "build", "--variant", "american", "--pieces", "9", "--dir", d]);
    assert!(!ok && err.contains("2 to 8 pieces"), "{err}");
    // learn's games end at the database's positions when given one, and say where it is not.
    let eval = dir.join("learned.eval");
    let learn = |extra: &[&str]| {
        let base = ["learn", "--variant", "american", "--games", "20", "--nodes", "200"];
        doska(&[&base[..], &["--epochs", "1", "--out", eval.to_str().unwrap()], extra].concat())
    };
    let (ok, out, err) = learn(&["--egdb", d]);
    assert!(ok && out.contains("american: 20 games ("), "{out}{err}");
    let (ok, _, err) = learn(&["--egdb", dir.join("none").to_str().unwrap()]);
    assert!(!ok && err.contains("no database for american in"), "{err}");
    let (ok, _, err) = doska(&["learn", "--variant", "frisian", "--egdb", d, "--out", "x.eval"]);
    assert!(!ok && err.contains("frisian has no endgame database"), "{err}");
    let (ok, _, err) = learn(&["--egdb", d, "--positions", "saved.positions"]);
    assert!(!ok && err.contains("with --positions no game is played"), "{err}");
    let (ok, _, err) = doska(&["learn", "--variant", "ugolki", "--egdb", d, "--out", "x.eval"]);
    assert!(!ok && err.contains("--egdb is for draughts"), "{err}");
    std::fs::write(dir.join("american.egdb"), b"nonsense").unwrap();
    let (ok, _, err) = doska(&["analyze", "--variant", "american", "--depth", "1", "--egdb", d]);
    assert!(!ok && err.contains("not an endgame database"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn match_takes_a_weights_file_per_side_and_refuses_one_that_does_not_fit() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/../engine/weights/russian.eval");
    let (ok, out, err) = doska(&[
        "match",
        "--variant",
        "russian",
        "--a",
        "easy",
        "--b",
        "easy",
        "--games",
        "2",
        "--a-weights",
        file,
    ]);
    assert!(ok, "{err}");
    assert!(out.contains("easy with ") && out.contains("russian.eval vs easy: 2 games"), "{out}");
    let (ok, _, err) = doska(&[
        "match",
        "--variant",
        "italian",
        "--a",
        "easy",
        "--b",
        "easy",
        "--games",
        "2",
        "--a-weights",
        file,
    ]);
    assert!(!ok && err.contains("whose board is not italian's"), "{err}");
    let (ok, _, err) = doska(&[
        "match",
        "--variant",
        "russian",
        "--a",
        "easy",
        "--b",
        "easy",
        "--b-weights",
        "/nonexistent.eval",
    ]);
    assert!(!ok && err.contains("/nonexistent.eval"), "{err}");
}

#[test]
fn match_plays_another_build_through_its_hub_and_refuses_what_it_cannot_play() {
    let me = env!("CARGO_BIN_EXE_doska");
    let base = ["match", "--a", "insane", "--b", "insane", "--games", "2", "--scale", "0.002"];
    // This build against itself as a program: two whole games, each move of b's through the
    // child's hub (an illegal or missing move would end the match with an error).
    let (ok, out, err) =
        doska(&[&base[..], &["--variant", "russian", "--b-program", me, "--log"]].concat());
    assert!(ok, "{err}");
    assert!(out.contains(&format!("vs insane of {me}: 2 games")), "{out}");
    assert_eq!(err.lines().filter(|l| l.contains("game ") && l.contains(" plies")).count(), 2);
    // b's names go to the program, which refuses one it does not know.
    let (ok, _, err) = doska(
        &[&base[..], &["--variant", "russian", "--b-program", me, "--b-without", "nonesuch"]]
            .concat(),
    );
    // The program's own words say why it ended.
    assert!(!ok && err.contains("hub ended"), "{err}");
    assert!(err.contains("unknown evaluation term \"nonesuch\""), "{err}");
    let (ok, out, err) = doska(
        &[&base[..], &["--variant", "russian", "--b-program", me, "--b-without", "probcut"]]
            .concat(),
    );
    assert!(ok, "{err}");
    assert!(out.contains(&format!("vs insane without probcut of {me}: 2 games")), "{out}");
    // b's weights go to the program too (a file of its layout, which this build need not
    // read); one that is not there is named.
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/../engine/weights/russian.eval");
    let (ok, out, err) = doska(
        &[&base[..], &["--variant", "russian", "--b-program", me, "--b-weights", file]].concat(),
    );
    assert!(ok, "{err}");
    assert!(out.contains(&format!("vs insane with {file} of {me}: 2 games")), "{out}");
    let (ok, _, err) = doska(
        &[
            &base[..],
            &["--variant", "russian", "--b-program", me, "--b-weights", "/nonexistent.eval"],
        ]
        .concat(),
    );
    assert!(!ok && err.contains("--b-weights /nonexistent.eval"), "{err}");
    // The program's hub refuses a file of another board for the match's rule set.
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/../engine/weights/international.eval");
    let (ok, _, err) = doska(
        &[&base[..], &["--variant", "russian", "--b-program", me, "--b-weights", file]].concat(),
    );
    assert!(!ok && err.contains("for international, whose board is not russian's"), "{err}");
    let (ok, _, err) = doska(
        &[&base[..], &["--variant", "russian", "--b-program", "/nonexistent/doska"]].concat(),
    );
    assert!(!ok && err.contains("starting /nonexistent/doska hub"), "{err}");
    let (ok, _, err) = doska(&[&base[..], &["--variant", "ugolki", "--b-program", me]].concat());
    assert!(!ok && err.contains("draughts only"), "{err}");
    let (ok, _, err) =
        doska(&["match", "--variant", "russian", "--a", "easy", "--b", "hard", "--b-program", me]);
    assert!(!ok && err.contains("plays Insane"), "{err}");
}

#[test]
fn match_takes_an_ugolki_weights_file_and_logs_each_game() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/../engine/weights/ugolki.eval");
    let base = ["match", "--a", "easy", "--b", "easy", "--games", "2", "--a-weights", file];
    let (ok, out, err) = doska(&[&base[..], &["--variant", "ugolki", "--log"]].concat());
    assert!(ok, "{err}");
    assert!(out.contains("ugolki.eval vs easy: 2 games"), "{out}");
    // One line a game: its opening, a's colour and result, how it ended, after how many plies.
    let logged: Vec<&str> = err.lines().filter(|l| l.contains("game ")).collect();
    assert!(
        logged.iter().any(|l| l.contains("game 1: opening '") && l.contains("a white")),
        "{err}"
    );
    assert!(
        logged.iter().any(|l| l.contains("game 2: opening '") && l.contains("a black")),
        "{err}"
    );
    assert!(logged.iter().all(|l| l.contains(" plies")), "{err}");
    // The weights are made per preset: another preset's board does not take them.
    let (ok, _, err) = doska(&[&base[..], &["--variant", "ugolki-brainking"]].concat());
    assert!(!ok && err.contains("not ugolki-brainking"), "{err}");
}

#[test]
fn book_show_and_build() {
    let (ok, out, err) = doska(&["book", "show", "--variant", "russian", "--moves", "c3-d4"]);
    assert!(ok, "{err}");
    let first = out.lines().next().unwrap_or_default();
    assert!(first.split(' ').nth(1).is_some_and(|s| s.parse::<i32>().is_ok()), "{out}");
    let (ok, out, _) =
        doska(&["book", "show", "--variant", "russian", "--moves", "c3-d4 h6-g5 a3-b4"]);
    assert!(ok && out.starts_with("not in the book"), "{out}");
    let (ok, _, err) = doska(&["book", "show", "--variant", "ugolki"]);
    assert!(!ok && err.contains("no opening book for ugolki (it has: russian"), "{err}");
    let dir = std::env::temp_dir().join(format!("doska-book-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let book = dir.join("american.book");
    let path = book.to_str().unwrap();
    let build = ["book", "build", "--variant", "american", "--depth", "2", "--plies", "2"];
    let (ok, out, err) = doska(&[&build[..], &["--out", path]].concat());
    assert!(ok, "{err}");
    assert!(out.contains("american: 57 positions to depth 2"), "{out}");
    let text = std::fs::read_to_string(&book).unwrap();
    assert!(
        text.starts_with("# doska opening book: american\n# made by: doska book build"),
        "{text}"
    );
    let (ok, out, err) = doska(&["book", "show", "--variant", "american", "--file", path]);
    assert!(ok && !out.starts_with("not in the book"), "{out}{err}");
    // The file is checked against the rule set it is read for.
    let (ok, _, err) = doska(&["book", "show", "--variant", "russian", "--file", path]);
    assert!(!ok && err.contains("line 4"), "{err}");
    let (ok, _, err) = doska(&[&build[..], &["--out", "/nonexistent/x.book"]].concat());
    assert!(!ok && err.contains("there is no folder /nonexistent"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn learn_writes_a_weights_file_and_refuses_what_does_not_apply() {
    let dir = std::env::temp_dir().join(format!("doska-learn-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("russian.eval");
    let path = file.to_str().unwrap();
    // A quick fit: 30 games at 200 nodes, two passes.
    let quick = |variant: &str, extra: &[&str]| {
        let base = ["learn", "--variant", variant, "--games", "30", "--nodes", "200"];
        let tail = ["--epochs", "2", "--threads", "1", "--out", path];
        doska(&[&base[..], extra, &tail[..]].concat())
    };
    let (ok, out, err) = quick("russian", &["--hand-set-material"]);
    assert!(ok, "{out}{err}");
    // With the hand-set material a man is worth exactly the hand-set 100.
    assert!(out.contains("a man is worth 100 and a king 320 on a full board"), "{out}");
    assert!(out.contains("one unit of the logistic = "), "{out}");
    // The russian layout's file: the header, the name, the count and 1,600 weights.
    let bytes = std::fs::read(&file).unwrap();
    assert!(bytes.starts_with(b"DSKEVAL1\x07russian") && bytes.len() == 3220, "{}", bytes.len());
    // The games saved, and fitted again from the file without playing them.
    let saved = dir.join("russian.positions");
    let saved = saved.to_str().unwrap();
    let fit = |extra: &[&str]| {
        let base = ["learn", "--variant", "russian", "--epochs", "2", "--out", path];
        doska(&[&base[..], extra].concat())
    };
    let (ok, out, err) =
        fit(&["--games", "30", "--nodes", "200", "--threads", "1", "--save-positions", saved]);
    assert!(ok && out.contains("wrote the positions to"), "{out}{err}");
    let first = std::fs::read(&file).unwrap();
    let (ok, again, err) = fit(&["--positions", saved]);
    assert!(ok && again.contains("30 games ("), "{again}{err}");
    assert_eq!(std::fs::read(&file).unwrap(), first, "the same games, the same weights");
    // Two files of positions: every game of both, the second's numbered after the first's
    // (each file numbers its games from 0, and one game has one result).
    let (ok, twice, err) = fit(&["--positions", saved, "--positions", saved]);
    assert!(ok && twice.contains("60 games ("), "{twice}{err}");
    assert!(twice.contains(&format!("read from {saved}, {saved}")), "{twice}");
    let (ok, _, err) =
        doska(&["learn", "--variant", "american", "--positions", saved, "--out", path]);
    assert!(!ok && err.contains("the positions are russian's, not american's"), "{err}");
    let (ok, _, err) = fit(&["--save-positions", "/nonexistent/p.positions"]);
    assert!(
        !ok && err.contains("--save-positions /nonexistent/p.positions: there is no folder"),
        "{err}"
    );
    let (ok, _, err) = doska(&[
        "learn",
        "--variant",
        "ugolki",
        "--games",
        "2",
        "--hand-set-material",
        "--out",
        path,
    ]);
    assert!(!ok && err.contains("--hand-set-material is for draughts"), "{err}");
    let (ok, _, err) =
        doska(&["learn", "--variant", "poddavki", "--hand-set-material", "--out", path]);
    assert!(!ok && err.contains("worth less than nothing"), "{err}");
    // The saved games again, with a walk off their lines from each position.
    let (ok, out, err) =
        fit(&["--positions", saved, "--explore-nodes", "100", "--explore-plies", "3"]);
    assert!(
        ok && out.contains(
            "positions off the games' lines (1 from each game position, by walks of up to 3"
        ),
        "{out}{err}"
    );
    assert_ne!(std::fs::read(&file).unwrap(), first, "the walks move the weights");
    let (ok, _, err) =
        fit(&["--positions", saved, "--explore-nodes", "100", "--explore-plies", "0"]);
    assert!(!ok && err.contains("--explore-plies"), "{err}");
    let (ok, _, err) =
        doska(&["learn", "--variant", "ugolki", "--explore-nodes", "100", "--out", path]);
    assert!(!ok && err.contains("--explore-nodes is for draughts"), "{err}");
    // The saved games searched again deeper, one position in two, and saved with the new
    // scores: the same games, half the lines, and weights of their own.
    let rescored = dir.join("rescored.positions");
    let rescored = rescored.to_str().unwrap();
    let (ok, out, err) = fit(&[
        "--positions",
        saved,
        "--rescore-nodes",
        "1000",
        "--rescore-every",
        "2",
        "--threads",
        "1",
        "--save-positions",
        rescored,
    ]);
    assert!(
        ok && out.contains("positions (one in 2) searched again at 1000 nodes with the hand-set"),
        "{out}{err}"
    );
    let lines = |f: &str| std::fs::read_to_string(f).unwrap().lines().count();
    assert_eq!(lines(rescored) - 1, (lines(saved) - 1).div_ceil(2));
    assert_ne!(std::fs::read(&file).unwrap(), first, "new scores, new weights");
    let (ok, again, err) = fit(&["--positions", rescored]);
    assert!(ok && again.contains("30 games ("), "{again}{err}");
    let (ok, _, err) = fit(&["--positions", saved, "--rescore-every", "2"]);
    assert!(!ok && err.contains("give --rescore-nodes too"), "{err}");
    let (ok, _, err) =
        doska(&["learn", "--variant", "ugolki", "--rescore-nodes", "100", "--out", path]);
    assert!(!ok && err.contains("--rescore-nodes is for draughts"), "{err}");
    // Lasca's columns are learned too, in the spread units.
    let (ok, out, err) = quick("lasca", &["--units", "spread"]);
    assert!(ok && out.contains("fitted "), "{out}{err}");
    assert!(std::fs::read(&file).unwrap().starts_with(b"DSKEVAL1\x05lasca"));
    let (ok, _, err) = doska(&["learn", "--variant", "russian", "--units", "pawn", "--out", path]);
    assert!(!ok && err.contains("hand") && err.contains("man"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn learn_fits_a_network_on_top_of_the_weights() {
    let dir = std::env::temp_dir().join(format!("doska-learn-net-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("american.net");
    let path = file.to_str().unwrap();
    let base = ["learn", "--variant", "american", "--games", "40", "--nodes", "200"];
    let tail = ["--threads", "1", "--epochs", "2", "--net", "--out", path];
    let (ok, out, err) = doska(&[&base[..], &tail[..]].concat());
    assert!(ok, "{out}{err}");
    assert!(
        out.contains("fitted a network of 128 inputs and 32 hidden units on top of the build's american weights"),
        "{out}"
    );
    assert!(out.contains("positions of the held-out games") && out.contains("(the weights alone "));
    // Header, name, sizes, then the scale and 128 x 32 + 2 x 32 weights, 4 bytes each.
    let bytes = std::fs::read(&file).unwrap();
    assert!(bytes.starts_with(b"DSKNET01\x08american"));
    assert_eq!(bytes.len(), 8 + 1 + 8 + 8 + 4 * (1 + 128 * 32 + 64));
    let (ok, _, err) = doska(&["learn", "--variant", "ugolki", "--net", "--out", path]);
    assert!(!ok && err.contains("--net is for draughts"), "{err}");
    let (ok, _, err) =
        doska(&["learn", "--variant", "american", "--net", "--min-count", "30", "--out", path]);
    assert!(!ok && err.contains("with --net they do not apply"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn dxp_refuses_the_initiators_options_on_a_follower() {
    // The follower plays the games and times it is asked for: the initiator's options would do
    // nothing there.
    for extra in
        [["--opening-offset", "1"], ["--fen", "W:W31:B20"], ["--minutes", "5"], ["--moves", "40"]]
    {
        let mut args = vec!["dxp", "--listen", "127.0.0.1:0"];
        args.extend(extra);
        let (ok, _, err) = doska(&args);
        assert!(!ok, "{extra:?} accepted on a follower");
        assert!(err.contains(extra[0]) && err.contains("cannot be used with"), "{err}");
        assert!(err.contains("--listen"), "{err}");
    }
    let (ok, _, err) =
        doska(&["dxp", "--connect", "127.0.0.1:1", "--fen", "x", "--opening-offset", "1"]);
    assert!(!ok && err.contains("--opening-offset") && err.contains("--fen"), "{err}");
}
