//! The opening books: every embedded book reads (every line replays from the start, every
//! move is legal, best first), a bad book is refused with its line and what is wrong, Hard
//! and Medium play from the book (any move within their margin, so their games differ; Easy
//! and Insane search), and `doska book build` makes a book that reads back and
//! does not depend on its threads, and one of best moves that follows every reply to them.

#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

use doska_engine::book::{self, Book, Entry, Plan};
use doska_engine::{Level, Searcher, Terms, choose, choose_with_terms};
use doska_rules::{AnyGame, RuleSet};
use std::collections::BTreeSet;

fn rules(id: &str) -> RuleSet {
    id.parse().unwrap()
}

#[test]
fn every_embedded_book_reads_and_holds_the_first_moves() {
    let all = book::embedded_all();
    assert!(all.len() >= 3, "russian, american and international at least");
    for (id, b) in all {
        let b = b.as_ref().unwrap_or_else(|e| panic!("{id}: {e}"));
        let start = AnyGame::new(b.rules());
        let entries = b.get(&start).unwrap_or_else(|| panic!("{id}: no start position"));
        assert!(!entries.is_empty());
        // Every first move is followed, and the best reply to each is in the book.
        for m in start.legal_moves() {
            let mut g = start.clone();
            g.play(&m.notation).unwrap();
            assert!(b.get(&g).is_some(), "{id}: {} is not in the book", m.notation);
        }
        assert!(b.len() > start.legal_moves().len(), "{id}: {} positions", b.len());
    }
}

#[test]
fn a_bad_book_is_refused_with_its_line() {
    let r = rules("russian");
    let err = |text: &str| Book::parse(text, r).unwrap_err();
    assert!(err("# head\n| c3-d4 5\nc3-d4 f6-g5\n").starts_with("line 3: no '|'"));
    assert!(err("c3-d5 | f6-g5 1\n").starts_with("line 1: c3-d5 does not follow"));
    assert!(err("| c3-d4 5 e3-f4\n").contains("pairs of a move and its score"));
    assert!(err("| c3-d4 five\n").contains("\"five\" is not a score"));
    assert!(err("| c3-d4 5 e3-f4 9\n").contains("not best first"));
    assert!(err("| c3-d4 5 c3-d4 4\n").contains("listed twice"));
    assert!(err("| f6-g5 5\n").contains("f6-g5 is not a move there"));
    assert!(err("| c3-d4 5\n| c3-d4 5\n").starts_with("line 2: the position is in the book"));
    let ok = Book::parse("| c3-d4 5 e3-f4 5 g3-h4 -30\nc3-d4 | f6-g5 0\n", r).unwrap();
    assert_eq!(ok.len(), 2);
    // A transposition finds the position too: the key is the position, not the moves.
    let mut g = AnyGame::new(r);
    g.play("c3-d4").unwrap();
    assert_eq!(ok.get(&g).unwrap()[0].mv, "f6-g5");
    // Another rule set's game is never looked up.
    assert!(ok.get(&AnyGame::new(rules("brazilian"))).is_none());
}

#[test]
fn pick_keeps_to_the_margin() {
    let e = |mv: &str, score| Entry { mv: mv.into(), score };
    let entries = [e("a", 10), e("b", 5), e("c", -20)];
    let tied = [e("a", 10), e("b", 10), e("c", 9)];
    let seen: BTreeSet<&str> = (0..50).filter_map(|s| book::pick(&tied, 0, s)).collect();
    assert_eq!(seen, BTreeSet::from(["a", "b"]), "a tie is either");
    for seed in 0..50 {
        assert_eq!(book::pick(&entries, 0, seed), Some("a"));
        assert_ne!(book::pick(&entries, 10, seed), Some("c"));
    }
    let seen: BTreeSet<&str> = (0..50).filter_map(|s| book::pick(&entries, 30, s)).collect();
    assert_eq!(seen, BTreeSet::from(["a", "b", "c"]));
    assert_eq!(book::pick(&[], 30, 1), None);
}

#[test]
fn the_levels_play_from_the_book() {
    for id in ["russian", "american", "international"] {
        let r = rules(id);
        let b = book::embedded(r).unwrap();
        let start = AnyGame::new(r);
        let entries = b.get(&start).unwrap();

        // Hard and Medium: every book move within their margin, over a few games, no other.
        for level in [Level::Hard, Level::Medium] {
            let margin = level.recipe().book_margin.unwrap();
            let want: BTreeSet<&str> = entries
                .iter()
                .filter(|e| e.score >= entries[0].score - margin)
                .map(|e| e.mv.as_str())
                .collect();
            let got: BTreeSet<String> =
                (0..64).filter_map(|seed| choose(&start, level, seed, 0.0003)).collect();
            let got: BTreeSet<&str> = got.iter().map(String::as_str).collect();
            assert_eq!(got, want, "{id} {level}");
        }
        // Without the book Hard searches: at a millisecond a move, not always a book move.
        let terms = Terms { book: false, ..Level::Hard.recipe().terms };
        let mut s = Searcher::new(1, terms);
        let mv = choose_with_terms(&mut s, &start, Level::Hard, terms, 1, 0.0003).unwrap();
        assert!(start.legal_moves().iter().any(|m| m.notation == mv));
    }
    // Easy keeps to its own random search, Insane to its own search.
    assert!(!Level::Easy.recipe().terms.book && Level::Easy.recipe().book_margin.is_none());
    assert!(Level::Insane.recipe().book_margin.is_none());
}

#[test]
fn a_built_book_reads_back_and_does_not_depend_on_the_threads() {
    let r = rules("american");
    let plan = |threads| Plan {
        depth: 3,
        plies: 3,
        full: 1,
        width: 2,
        margin: 15,
        threads,
        best_only: false,
        replies: false,
    };
    let one = book::build(r, &plan(1), |_, _| {});
    let two = book::build(r, &plan(2), |_, _| {});
    assert_eq!(one.text, two.text);
    let b = Book::parse(&one.text, r).unwrap();
    assert_eq!(b.len(), one.positions);
    // The start, its 7 first moves, then at most 2 book moves followed from each position.
    assert!(one.positions > 8 && one.positions <= 1 + 7 + 14 + 28, "{}", one.positions);
    let start = AnyGame::new(r);
    for m in start.legal_moves() {
        let mut g = start.clone();
        g.play(&m.notation).unwrap();
        let entries = b.get(&g).unwrap();
        let best = entries[0].score;
        assert!(entries.iter().all(|e| e.score >= best - 15));
    }
}

#[test]
fn a_book_of_best_moves_follows_every_reply_to_them() {
    let r = rules("american");
    let plan = Plan {
        depth: 3,
        plies: 3,
        full: 1,
        width: 1,
        margin: 15,
        threads: 2,
        best_only: true,
        replies: true,
    };
    let built = book::build(r, &plan, |_, _| {});
    let b = Book::parse(&built.text, r).unwrap();
    assert_eq!(b.len(), built.positions);
    assert!(
        built.text.lines().all(|l| l.split_whitespace().skip_while(|w| *w != "|").count() == 3)
    );
    let after = |g: &AnyGame, m: &str| {
        let mut g = g.clone();
        g.play(m).unwrap();
        g
    };
    let best = |g: &AnyGame| b.get(g).unwrap()[0].mv.clone();
    let start = AnyGame::new(r);
    let opening = best(&start);
    let mut partial = 0;
    for first in start.legal_moves() {
        // Every first move (Black's, the full ply), then White's book move: every Black
        // answer to it is in the book, so White finds its next move there. For the book's own
        // first move that holds too: its best reply is a book move like any other.
        let one = after(&start, &first.notation);
        let two = after(&one, &best(&one));
        for m in two.legal_moves() {
            assert!(
                b.get(&after(&two, &m.notation)).is_some(),
                "{} {}",
                first.notation,
                m.notation
            );
        }
        if first.notation != opening {
            continue;
        }
        // After the book's own first move every White reply is followed; after the others
        // only the best move (unless a transposition reaches more).
        for reply in one.legal_moves() {
            let two = after(&one, &reply.notation);
            let next: Vec<bool> = two
                .legal_moves()
                .iter()
                .map(|m| b.get(&after(&two, &m.notation)).is_some())
                .collect();
            assert!(b.get(&after(&two, &best(&two))).is_some());
            partial += usize::from(next.iter().any(|&x| !x));
        }
    }
    assert!(partial > 0, "replies to a move that is not the book's are not all followed");
}
