//! Known winning shots, found at a fixed depth, and every level playing legal moves in every
//! rule set.

#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

use doska_engine::{Features, Level, Limits, Searcher, Terms, analyze, choose};
use doska_rules::{AnyGame, RuleSet, Variant};

fn best(rules: &str, fen: &str, depth: u32) -> (String, i32) {
    best_with(rules, fen, depth, Terms::ALL)
}

fn best_with(rules: &str, fen: &str, depth: u32, terms: Terms) -> (String, i32) {
    let rs: RuleSet = rules.parse().unwrap();
    let game = AnyGame::from_fen(rs, fen).unwrap_or_else(|e| panic!("{rules} {fen}: {e}"));
    let mut s = Searcher::new(8, terms);
    let a = analyze(&mut s, &game, Limits { depth: Some(depth), ..Limits::default() }, |_| {});
    (a.best.unwrap_or_default(), a.score)
}

/// Asserts that the search at `depth` plays `want` and scores it above `min_score`.
fn shot(rules: &str, fen: &str, depth: u32, want: &str, min_score: i32) {
    let (mv, score) = best(rules, fen, depth);
    assert_eq!(mv, want, "{rules} {fen}");
    assert!(score > min_score, "{rules} {fen}: the shot wins, score {score}");
}

/// "Give one, take two": f4-e5 forces f6xd4, and e3 takes d4 and b6.
const TWO_FOR_ONE: &str = "W:We3,f2,f4:Bf6,b6,h8";

#[test]
fn sacrifice_into_a_double_capture() {
    // The same shot in each rule set's own notation.
    for (rules, want) in [
        ("russian", "f4-e5"),
        ("american", "19-15"),
        ("brazilian", "f4-e5"),
        ("international", "33-28"),
        ("czech", "f4-e5"),
        ("canadian", "51-45"),
        ("thai", "f4-e5"),
    ] {
        shot(rules, TWO_FOR_ONE, 6, want, 50);
    }
    // Lasca's 7x7 board has no h8: the far black man stands on g7 there.
    shot("lasca", "W:We3,f2,f4:Bf6,b6,g7", 6, "f4-e5", 50);
    // Italian and Spanish play on the mirrored board: the same shot, files reflected
    // (c4-d5, c6xe4, d3xf5xh7), where men capture forwards only.
    shot("italian", "W:Wd3,c2,c4:Bc6,g6,a8", 6, "18-14", 50);
    shot("spanish", "W:Wd3,c2,c4:Bc6,g6,a8", 6, "15-19", 50);
}

#[test]
fn late_moves_are_reduced_only_where_a_match_showed_it_helps() {
    // The start position to a fixed depth, with and without late move reductions: a smaller
    // tree in American and Russian, the very same one in International (where they gained
    // nothing).
    let nodes = |rules: &str, depth: u32, without: &str| {
        let mut s = Searcher::new(8, Terms::ALL);
        s.set_features(Features::ALL.without(without).unwrap());
        let game = AnyGame::new(rules.parse().unwrap());
        analyze(&mut s, &game, Limits { depth: Some(depth), ..Limits::default() }, |_| {}).nodes
    };
    let (with, without) = (nodes("american", 12, ""), nodes("american", 12, "lmr"));
    assert!(with < without, "american: {with} nodes with the reductions, {without} without");
    let (with, without) = (nodes("russian", 12, ""), nodes("russian", 12, "lmr"));
    assert!(with < without, "russian: {with} nodes with the reductions, {without} without");
    assert_eq!(nodes("international", 8, ""), nodes("international", 8, "lmr"));
    // The two-for-one shot is still found with them, at the same depth.
    shot("american", TWO_FOR_ONE, 6, "19-15", 50);
}

#[test]
fn orthogonal_sacrifice_into_a_double_capture() {
    // Turkish and Armenian: d4-d5 gives a man; whichever way Black takes it (d6xd4 or
    // e5xc5), the man on c4 takes two back (c4xe4xe6 or c4xc6xe6).
    for rules in ["turkish", "armenian"] {
        shot(rules, "W:Wd4,c4,c3,b4:Bd6,e5,a8,h8", 6, "d4-d5", 150);
    }
}

#[test]
fn frisian_orthogonal_multi_capture() {
    // c3 takes c5 straight up the file, then d8 on the diagonal: two men, landing on e9.
    shot("frisian", "W:Wc3:Bc5,d8,j10", 4, "37x8", 150);
}

#[test]
fn poddavki_gives_its_last_man_away() {
    // Giveaway: c3-d4 forces e5xc3, and White, with nothing left, has won.
    shot("poddavki", "W:Wc3:Be5", 2, "c3-d4", 20_000);
}

#[test]
fn king_breakthrough() {
    // Russian: the man on g5 runs to h8 unless stopped; the only way is the breakthrough
    // g5-h6, after which nothing can catch it. Black's man on a7 is far away.
    shot("russian", "W:Wg5:Ba7", 8, "g5-h6", 100);
}

#[test]
fn ugolki_takes_the_long_ladder() {
    // The chain c3-c5-c7-e7 over c4, c6 and d7 gains six steps at once: the hand-set race
    // count (every level's but Insane's, whose learned tables weigh more than steps) takes
    // it at once.
    let fen = "W:Wc3,c4,a1,b1,a2,b2,a3,b3,a4:Bc6,d7,g6,h6,g7,h7,f8,g8,h8:N20";
    let (mv, _) = best_with("ugolki", fen, 2, Terms { learned: false, ..Terms::ALL });
    assert_eq!(mv, "c3-e7");
}

#[test]
fn every_level_plays_a_legal_move_in_every_rule_set() {
    let mut all: Vec<RuleSet> = Variant::ALL.iter().map(|v| RuleSet::Draughts(*v)).collect();
    all.push("ugolki".parse().unwrap());
    all.push("ugolki-brainking-10".parse().unwrap());
    for rs in all {
        let game = AnyGame::new(rs);
        let legal: Vec<String> = game.legal_moves().into_iter().map(|m| m.notation).collect();
        for level in [Level::Easy, Level::Medium] {
            let mv =
                choose(&game, level, 3, 0.05).unwrap_or_else(|| panic!("{rs} {level}: no move"));
            assert!(legal.contains(&mv), "{rs} {level}: {mv} not in {legal:?}");
        }
        // Easy is deterministic for a seed.
        assert_eq!(choose(&game, Level::Easy, 9, 1.0), choose(&game, Level::Easy, 9, 1.0));
    }
}

#[test]
fn levels_parse_and_differ() {
    assert_eq!("Insane".parse::<Level>().unwrap(), Level::Insane);
    assert!("grandmaster".parse::<Level>().is_err());
    assert!(Level::Easy.recipe().random_margin.is_some());
    assert!(Level::Hard.recipe().terms.back_rank && !Level::Medium.recipe().terms.back_rank);
}

#[test]
fn two_threads_find_the_shot_in_a_timed_search() {
    let game = AnyGame::from_fen("russian".parse().unwrap(), TWO_FOR_ONE).unwrap();
    let mut s = Searcher::new(8, Terms::ALL);
    s.set_threads(2);
    assert_eq!(s.threads(), 2);
    let limits =
        Limits { movetime: Some(std::time::Duration::from_millis(150)), ..Limits::default() };
    for _ in 0..3 {
        // The searcher and its helper are reused from move to move.
        let a = analyze(&mut s, &game, limits, |_| {});
        assert_eq!(a.best.as_deref(), Some("f4-e5"));
        assert!(a.score > 50, "{}", a.score);
    }
    s.set_threads(1);
    assert_eq!(s.threads(), 1);
}

/// A repetition is looked for as far back as the last move that cannot be undone, and no
/// further: here a man's step, then four king moves, and White (a king and a man against
/// three kings) draws by going back to the position right after the man's step, exactly as
/// many plies back as moves have been undoable since.
#[test]
fn a_repetition_is_seen_back_to_the_last_man_move() {
    let rs: RuleSet = "american".parse().unwrap();
    let mut game = AnyGame::from_fen(rs, "W:WK29,24:BK1,K2,K3").unwrap();
    for m in ["24-20", "1-6", "29-25", "6-1"] {
        game.play(m).unwrap();
    }
    let mut s = Searcher::new(8, Terms::ALL);
    let a = analyze(&mut s, &game, Limits { depth: Some(6), ..Limits::default() }, |_| {});
    assert_eq!(a.best.as_deref(), Some("25-29"), "back to the position after 24-20: a draw");
    assert_eq!(a.score, 0);
    // Without the history, the same position is lost (three kings against a king and a man).
    let (_, lost) = best("american", "W:WK25,20:BK1,K2,K3", 6);
    assert!(lost < -100, "without the repetition White is lost: {lost}");
}

/// Where men step sideways (Turkish, Armenian) or a capture only moves pieces between columns
/// (Lasca), a man's step or a capture can be undone: the repetition check there looks back
/// over the whole path.
#[test]
fn the_repetition_window_is_unbounded_where_moves_can_be_undone() {
    use doska_engine::{DraughtsNode, Node};
    use doska_rules::Position;
    use doska_rules::fen::Counters;
    let quiet = Counters { quiet: 3, ..Counters::default() };
    let window = |v: Variant| DraughtsNode::new(Position::start(v), quiet, 0).reversible_plies();
    for v in [Variant::American, Variant::Russian, Variant::International, Variant::Frisian] {
        assert_eq!(window(v), 3, "{v:?}");
    }
    for v in [Variant::Turkish, Variant::Armenian, Variant::Lasca] {
        assert_eq!(window(v), usize::MAX, "{v:?}");
    }
}
