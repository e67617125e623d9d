//! Ugolki's exact race at work in the search: once the armies have passed each other, the
//! level that solves races keeps a one-move lead that the heuristic throws away.

#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

use doska_engine::eval::race::{Distance, RACE_MARGIN, RACE_WIN, RaceSolver, separated};
use doska_engine::{Level, Limits, Searcher, analyze};
use doska_rules::ugolki::{UgolkiGame, UgolkiPosition, UgolkiRules};
use doska_rules::{AnyGame, Color};

/// White needs 5 moves, Black 6, White to move, equal-moves rule on: White wins by one move
/// if every move it makes is a shortest-race move; any other move lets Black equalise (a
/// draw). The heuristic at 3 plies plays f6-h6, which loses the lead.
const ONE_MOVE_LEAD: &str = "W:Wg5,f6,g6,e7,g7,e8,f8,g8,h8:Ba1,c1,d1,a2,a3,b3,d3,b4,d5:N31";

fn white(position: &UgolkiPosition) -> u128 {
    position.placement().0
}

#[test]
fn insane_keeps_a_one_move_lead() {
    let rules = UgolkiRules::UGOLKI;
    let start = UgolkiPosition::from_fen(rules, ONE_MOVE_LEAD).unwrap();
    assert!(separated(&start));
    let mut solver = RaceSolver::new(&rules, Color::White, 1_000_000);
    let mut black = RaceSolver::new(&rules, Color::Black, 1_000_000);
    assert_eq!(solver.solve(white(&start)), Distance::Exact(5));
    assert_eq!(black.solve(start.placement().1), Distance::Exact(6));
    // The choice matters: some moves keep the lead, others do not.
    let mut keeps = |mv| solver.solve(white(&start.play(mv).unwrap())) == Distance::Exact(4);
    let legal = start.legal_moves();
    assert!(legal.iter().any(|&mv| !keeps(mv)));

    let game = AnyGame::Ugolki(UgolkiGame::from_position(start));
    let mut searcher = Searcher::new(8, Level::Insane.recipe().terms);
    let limits = Limits { depth: Some(3), ..Limits::default() };
    let a = analyze(&mut searcher, &game, limits, |_| {});
    let best = a.best.unwrap();
    let mv = *legal.iter().find(|mv| mv.to_string() == best).unwrap();
    assert!(keeps(mv), "{best} gives up the lead");
    assert_eq!(a.score, RACE_WIN + RACE_MARGIN, "a win by exactly one move");
}
