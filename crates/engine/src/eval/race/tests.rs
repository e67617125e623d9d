#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

use super::*;
use doska_rules::ugolki::{Square, UgolkiGame, judge_position};
use std::collections::HashSet;

fn rules(text: &str) -> UgolkiRules {
    UgolkiRules::parse(text).unwrap()
}

fn pos(rules: UgolkiRules, fen: &str) -> UgolkiPosition {
    UgolkiPosition::from_fen(rules, fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// The position text of two bitboards (move number `n`).
fn fen(rules: &UgolkiRules, white: u128, black: u128, side: Color, n: u16) -> String {
    let width = u32::from(rules.board.width());
    let names = |bits: u128| -> String {
        squares(bits)
            .map(|i| {
                let i = u32::from(i);
                Square::new((i % width) as u8, (i / width) as u8).unwrap().to_string()
            })
            .collect::<Vec<_>>()
            .join(",")
    };
    let side = if side == Color::White { "W" } else { "B" };
    format!("{side}:W{}:B{}:N{n}", names(white), names(black))
}

/// Every bitboard one single-side move away (the rules' own step and jump targets).
fn moves(rules: &UgolkiRules, bits: u128) -> Vec<u128> {
    let mut out = Vec::new();
    for from in squares(bits) {
        let from_bit = 1u128 << from;
        for to in squares(rules.step_targets(from_bit, bits) | rules.jump_targets(from_bit, bits)) {
            out.push(bits ^ from_bit ^ (1u128 << to));
        }
    }
    out
}

/// Breadth-first distances of every bitboard within `radius` moves of the full target. Moves
/// are reversible (a step back is a step; a jump chain run backwards uses the same hurdles
/// and landings), so this is each bitboard's distance to the target.
fn ball(rules: &UgolkiRules, side: Color, radius: u32) -> HashMap<u128, u32> {
    let goal = rules.home_bits(side.opposite());
    let mut dist = HashMap::from([(goal, 0)]);
    let mut frontier = vec![goal];
    for d in 1..=radius {
        let mut next = Vec::new();
        for bits in frontier {
            for child in moves(rules, bits) {
                if let std::collections::hash_map::Entry::Vacant(e) = dist.entry(child) {
                    e.insert(d);
                    next.push(child);
                }
            }
        }
        frontier = next;
    }
    dist
}

/// Plain breadth-first search from `bits` to any bitboard inside the target.
fn bfs(rules: &UgolkiRules, side: Color, bits: u128) -> u32 {
    let target = rules.home_bits(side.opposite());
    let mut seen = HashSet::from([bits]);
    let mut frontier = vec![bits];
    let mut d = 0;
    loop {
        if frontier.iter().any(|&b| b & !target == 0) {
            return d;
        }
        d += 1;
        let mut next = Vec::new();
        for b in frontier {
            for child in moves(rules, b) {
                if seen.insert(child) {
                    next.push(child);
                }
            }
        }
        assert!(!next.is_empty(), "target unreachable");
        frontier = next;
    }
}

struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n.max(1) as u64) as usize
    }
}

/// `count` random single-side moves from the full target (a bitboard at most `count` moves
/// from done).
fn walk(rules: &UgolkiRules, side: Color, count: usize, rng: &mut Rng) -> u128 {
    let mut bits = rules.home_bits(side.opposite());
    for _ in 0..count {
        let next = moves(rules, bits);
        bits = next[rng.below(next.len())];
    }
    bits
}

const BOARDS: [(&str, u32); 6] = [
    ("ugolki", 4),
    ("ugolki:dirs=8", 3),
    ("ugolki:home=stair", 4),
    ("ugolki:home=3x4", 3),
    ("ugolki:board=10", 4),
    ("ugolki-brainking-10", 3),
];

#[test]
fn solver_equals_breadth_first_search_near_the_corner() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    for (text, radius) in BOARDS {
        let rules = rules(text);
        for side in [Color::White, Color::Black] {
            let dist = ball(&rules, side, radius);
            let mut solver = RaceSolver::new(&rules, side, 10_000_000);
            let states: Vec<(u128, u32)> = dist.iter().map(|(&b, &d)| (b, d)).collect();
            let mut checked = [0; 8];
            for _ in 0..300 {
                let (bits, d) = states[rng.below(states.len())];
                assert_eq!(solver.solve(bits), Distance::Exact(d), "{text} {side:?} {bits:#x}");
                checked[d as usize] += 1;
            }
            // The sample reaches the far layers, where the search has work to do.
            assert!(checked[radius as usize] > 0, "{text} {side:?}: {checked:?}");
        }
    }
}

#[test]
fn lower_bound_never_exceeds_the_distance() {
    for (text, radius) in BOARDS {
        let rules = rules(text);
        for side in [Color::White, Color::Black] {
            let solver = RaceSolver::new(&rules, side, 0);
            let mut tight = 0;
            for (&bits, &d) in &ball(&rules, side, radius) {
                let bound = solver.lower_bound(bits);
                assert!(bound <= d, "{text} {side:?} {bits:#x}: bound {bound} > distance {d}");
                tight += usize::from(bound == d);
            }
            assert!(tight > 0);
        }
    }
}

#[test]
fn solver_equals_breadth_first_search_for_a_few_pieces_anywhere() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for (text, cases) in [
        ("ugolki", 40),
        ("ugolki:dirs=8", 40),
        ("ugolki:home=stair", 40),
        ("ugolki-brainking-10", 10),
    ] {
        let rules = rules(text);
        let width = rules.board.width() as usize;
        for side in [Color::White, Color::Black] {
            let mut solver = RaceSolver::new(&rules, side, 10_000_000);
            for case in 0..cases {
                let pieces = 1 + case % 3;
                let mut bits = 0u128;
                while bits.count_ones() < pieces as u32 {
                    bits |= 1u128 << rng.below(width * width);
                }
                let want = bfs(&rules, side, bits);
                assert_eq!(solver.solve(bits), Distance::Exact(want), "{text} {side:?} {bits:#x}");
                assert!(solver.lower_bound(bits) <= want);
            }
        }
    }
}

#[test]
fn solver_gives_up_beyond_its_budget() {
    let rules = rules("ugolki");
    let mut solver = RaceSolver::new(&rules, Color::White, 50);
    // The whole army at home is a long race: the solver gives up with a proven bound.
    let home = rules.home_bits(Color::White);
    let Distance::AtLeast(bound) = solver.solve(home) else { panic!("solved in 50 nodes") };
    assert!(bound >= solver.lower_bound(home));
    assert!(solver.nodes() > 50);
}

#[test]
fn separation() {
    let ugolki = rules("ugolki");
    let cases = [
        // The start: the armies have not met yet.
        (ugolki, "W:Wa1,b1,c1,a2,b2,c2,a3,b3,c3:Bf6,g6,h6,f7,g7,h7,f8,g8,h8", false),
        // A late race: White's rearmost e6 (diagonal 9) is 3 ahead of Black's d4 (6).
        (ugolki, "W:Wf6,g6,h6,f7,g7,h7,f8,g8,e6:Ba1,b1,c1,a2,b2,c2,a3,b3,d4:N30", true),
        // e5 and d4 touch diagonally: only 2 apart.
        (ugolki, "W:Wf6,g6,h6,f7,g7,h7,f8,g8,e5:Ba1,b1,c1,a2,b2,c2,a3,b3,d4:N30", false),
        // White still has a piece at home (c3): it blocks Black's target.
        (ugolki, "W:Wf6,g6,h6,f7,g7,h7,f8,g8,c3:Ba1,b1,c1,a2,b2,d1,a3,b3,a4:N30", false),
        // Black's piece at home on h8 blocks White's target.
        (ugolki, "W:Wf6,g6,h6,f7,g7,h7,f8,g8,e6:Ba1,b1,c1,a2,b2,c2,a3,b3,h8:N30", false),
        // h4 lies in White's own half, but diagonal 10 is far from Black: separated.
        (ugolki, "W:Wf6,g6,h6,f7,g7,f8,g8,h4,e6:Ba1,b1,c1,a2,b2,c2,a3,b3,d4:N30", true),
        // The same with the leave-half rule: h4 is in White's own half.
        (
            rules("ugolki:half-rule=60"),
            "W:Wf6,g6,h6,f7,g7,f8,g8,h4,e6:Ba1,b1,c1,a2,b2,c2,a3,b3,d4:N30",
            false,
        ),
        // 10x10, 8 directions: White's rearmost f6 (diagonal 10) against Black's e3 (6).
        (
            rules("ugolki-brainking-10"),
            "W:Wg7,h7,i7,j7,g8,h8,i8,j8,g9,h9,i9,j9,g10,h10,i10,f6:\
             Ba1,b1,c1,d1,a2,b2,c2,d2,a3,b3,c3,d3,a4,b4,c4,e3:N40",
            true,
        ),
    ];
    for (rules, text, want) in cases {
        assert_eq!(separated(&pos(rules, text)), want, "{rules} {text}");
    }
}

#[test]
fn outcome_table() {
    use Winner::{Black, Draw, White};
    let on = rules("ugolki");
    let off = rules("ugolki:equal=off");
    let cases = [
        // White to move: both have made 10.
        (on, 10, 10, 5, 5, Draw),
        (on, 10, 10, 5, 6, White),
        (on, 10, 10, 6, 5, Black),
        (off, 10, 10, 5, 5, White),
        // Black to move: White has made 11.
        (on, 11, 10, 4, 5, Draw),
        (on, 11, 10, 4, 4, Black),
        (off, 11, 10, 4, 5, White),
        // White has completed, Black replies: a draw if it completes with this move.
        (on, 11, 10, 0, 1, Draw),
        (on, 11, 10, 0, 2, White),
        // The move limit: completing on one's 150th move still counts, later does not.
        (on, 145, 145, 5, 9, White),
        (on, 145, 145, 9, 5, Black),
        (on, 145, 145, 6, 6, Draw),
        (on, 145, 145, 7, 6, Draw),
        (off, 145, 145, 5, 5, White),
    ];
    for (rules, wm, bm, a, b, want) in cases {
        assert_eq!(race_outcome(&rules, wm, bm, a, b), want, "{rules} {wm} {bm} {a} {b}");
    }
}

/// Plays both races out optimally, alternately, on a real game and returns how it ended.
fn play_out(start: UgolkiPosition, solvers: &mut [RaceSolver; 2]) -> Winner {
    let mut game = UgolkiGame::from_position(start);
    while game.outcome().is_none() {
        let position = *game.position();
        let side = position.side_to_move();
        let solver = &mut solvers[side as usize];
        let need = solver.solve(position.placement_of(side)).exact().unwrap();
        let mv = position
            .legal_moves()
            .into_iter()
            .find(|&mv| {
                let next = position.play(mv).unwrap();
                need > 0 && solver.solve(next.placement_of(side)) == Distance::Exact(need - 1)
            })
            .unwrap_or_else(|| panic!("{}: no move keeps the race", position.to_fen()));
        game.play(mv).unwrap();
    }
    game.outcome().unwrap().winner
}

trait Own {
    fn placement_of(&self, side: Color) -> u128;
}

impl Own for UgolkiPosition {
    fn placement_of(&self, side: Color) -> u128 {
        let (white, black, _) = self.placement();
        if side == Color::White { white } else { black }
    }
}

#[test]
fn outcome_matches_the_game_played_out() {
    let mut rng = Rng(0xd1b5_4a32_d192_ed03);
    let mut seen = HashSet::new();
    for (text, games) in [
        ("ugolki", 40),
        ("ugolki:equal=off", 40),
        ("ugolki-brainking", 40),
        ("ugolki-brainking:equal=on", 40),
        ("ugolki-brainking-10", 6),
    ] {
        let rules = rules(text);
        let mut solvers =
            [Color::White, Color::Black].map(|s| RaceSolver::new(&rules, s, 5_000_000));
        let mut played = 0;
        while played < games {
            let white = walk(&rules, Color::White, 2 + rng.below(6), &mut rng);
            let black = walk(&rules, Color::Black, 2 + rng.below(6), &mut rng);
            if white & black != 0 {
                continue;
            }
            let side = if rng.below(2) == 0 { Color::White } else { Color::Black };
            let n = [1, 20, 41, 143, 146, 148, 150][rng.below(7)];
            let start = pos(rules, &fen(&rules, white, black, side, n));
            if !separated(&start) || judge_position(&start).is_some() {
                continue;
            }
            let a = solvers[0].solve(white).exact().unwrap();
            let b = solvers[1].solve(black).exact().unwrap();
            let want = race_outcome(
                &rules,
                start.moves_made(Color::White),
                start.moves_made(Color::Black),
                a,
                b,
            );
            let got = play_out(start, &mut solvers);
            assert_eq!(got, want, "{text} {} needs {a} and {b}", start.to_fen());
            let w = u32::from(start.moves_made(Color::White)) + a;
            let b = u32::from(start.moves_made(Color::Black)) + b;
            seen.insert((want, w == b, w.min(b) > 150));
            played += 1;
        }
    }
    // Wins both ways, equal-moves draws and move-limit draws all occurred.
    for kind in [
        (Winner::White, false, false),
        (Winner::Black, false, false),
        (Winner::Draw, true, false),
        (Winner::Draw, false, true),
    ] {
        assert!(seen.contains(&kind), "{kind:?} not covered: {seen:?}");
    }
}

#[test]
fn exact_score_agrees_with_the_outcome() {
    let rules = rules("ugolki");
    let start = pos(rules, "W:Wf6,g6,h6,f7,g7,h7,f8,g8,e6:Ba1,b1,c1,a2,b2,c2,a3,b3,d4:N30");
    let score = exact_score(&start).unwrap();
    let mut white = RaceSolver::new(&rules, Color::White, 1_000_000);
    let mut black = RaceSolver::new(&rules, Color::Black, 1_000_000);
    let a = white.solve(start.placement_of(Color::White)).exact().unwrap();
    let b = black.solve(start.placement_of(Color::Black)).exact().unwrap();
    let want = match race_outcome(&rules, 29, 29, a, b) {
        Winner::White => RACE_WIN + RACE_MARGIN * (b as i32 - a as i32),
        Winner::Black => -(RACE_WIN + RACE_MARGIN * (a as i32 - b as i32)),
        Winner::Draw => 0,
    };
    assert_eq!(score, want, "White needs {a}, Black {b}");
    // A second call comes from the cache and agrees.
    assert_eq!(exact_score(&start), Some(score));
    // The heuristic does not apply here.
    assert!(score == 0 || score.abs() >= RACE_WIN);
}

/// The separated positions of `games` games of self-play at `depth` plies with the heuristic
/// alone (the first four plies at random).
fn separated_positions(
    rules: UgolkiRules,
    depth: u32,
    games: usize,
    rng: &mut Rng,
) -> Vec<UgolkiPosition> {
    use crate::eval::Terms;
    use crate::search::{Limits, Searcher};
    let heuristic = Terms { exact_race: false, ..Terms::ALL };
    let mut searcher = Searcher::new(16, heuristic);
    let mut rows = Vec::new();
    for _ in 0..games {
        let mut game = UgolkiGame::new(rules);
        while game.outcome().is_none() {
            let position = *game.position();
            if separated(&position) {
                rows.push(position);
            }
            let mv = if game.moves().len() < 4 {
                let legal = position.legal_moves();
                legal[rng.below(legal.len())]
            } else {
                let limits = Limits { depth: Some(depth), ..Limits::default() };
                searcher.search(&position, &[], limits, |_| {}).best.unwrap()
            };
            game.play(mv).unwrap();
        }
    }
    rows
}

/// The solver's cost on the separated positions of real games, from the moment the armies
/// part. Run by hand:
/// `cargo test -p doska-engine --release --lib race_cost -- --ignored --nocapture`.
#[test]
#[ignore]
fn race_cost() {
    let mut rng = Rng(0x6a09_e667_f3bc_c909);
    for (text, depth) in [("ugolki", 4), ("ugolki-brainking", 4), ("ugolki-brainking-10", 3)] {
        let rules = rules(text);
        let rows = separated_positions(rules, depth, 4, &mut rng);
        eprintln!("{text}: {} separated positions", rows.len());
        let mut solved = 0;
        let mut total_nodes = 0;
        let mut total_us = 0;
        for position in &rows {
            for side in [Color::White, Color::Black] {
                let bits = position.placement_of(side);
                let mut solver = RaceSolver::new(&rules, side, 2_000_000);
                let t = std::time::Instant::now();
                let d = solver.solve(bits).exact();
                let us = t.elapsed().as_micros();
                if d.is_some() {
                    solved += 1;
                    total_nodes += solver.nodes();
                    total_us += us;
                }
                eprintln!(
                    "  {side:?} outside {} bound {} distance {d:?}: {} nodes, {us} us",
                    (bits & !solver.target).count_ones(),
                    solver.lower_bound(bits),
                    solver.nodes(),
                );
            }
        }
        eprintln!(
            "{text}: solved {solved} of {} races, {} nodes and {} us per solved race",
            2 * rows.len(),
            total_nodes / solved.max(1),
            total_us / solved.max(1) as u128
        );
    }
}

/// What the exact race costs the search: the same separated positions searched to a fixed
/// depth with and without it. Run by hand like `race_cost`.
#[test]
#[ignore]
fn race_search_cost() {
    use crate::eval::Terms;
    use crate::search::{Limits, Searcher};
    let mut rng = Rng(0xbb67_ae85_84ca_a73b);
    for (text, depth) in [("ugolki", 4), ("ugolki-brainking", 4)] {
        let rules = rules(text);
        let rows = separated_positions(rules, depth, 4, &mut rng);
        for exact_race in [false, true] {
            let terms = Terms { exact_race, ..Terms::ALL };
            let (mut nodes, mut time) = (0, std::time::Duration::ZERO);
            for position in rows.iter().step_by(3) {
                let mut searcher = Searcher::new(16, terms);
                let t = std::time::Instant::now();
                let limits = Limits { depth: Some(6), ..Limits::default() };
                let out = searcher.search(position, &[], limits, |_| {});
                nodes += out.nodes;
                time += t.elapsed();
                eprintln!("  {} nodes, {:?}, score {}", out.nodes, t.elapsed(), out.score);
            }
            eprintln!(
                "{text}: {} positions at depth 6, exact race {exact_race}: {nodes} nodes, {time:?}",
                rows.iter().step_by(3).count()
            );
        }
    }
}

/// What the exact race is worth in play: in the separated positions of real games, how often
/// a search of 60 ms (as in `bench/terms.sh`) plays a shortest-race move, and how often a
/// move that keeps the race's result (win, draw or loss with both racing perfectly), with and
/// without it, counted where some legal move would not. Run by hand:
/// `cargo test -p doska-engine --release --lib race_move_quality -- --ignored --nocapture`.
#[test]
#[ignore]
fn race_move_quality() {
    use crate::eval::Terms;
    use crate::search::{Limits, Searcher};
    let mut rng = Rng(0x3c6e_f372_fe94_f82b);
    let rules = UgolkiRules::UGOLKI;
    let rows = separated_positions(rules, 4, 24, &mut rng);
    let limits =
        Limits { movetime: Some(std::time::Duration::from_millis(60)), ..Limits::default() };
    let rank = |w: Winner, side: Color| match (w, side) {
        (Winner::Draw, _) => 1,
        (Winner::White, Color::White) | (Winner::Black, Color::Black) => 2,
        _ => 0,
    };
    let (mut shortest_counted, mut result_counted) = (0, 0);
    let (mut shortest, mut kept) = ([0; 2], [0; 2]);
    for position in &rows {
        let side = position.side_to_move();
        let mut own = RaceSolver::new(&rules, side, 5_000_000);
        let mut other = RaceSolver::new(&rules, side.opposite(), 5_000_000);
        let (Some(n), Some(m)) = (
            own.solve(position.placement_of(side)).exact(),
            other.solve(position.placement_of(side.opposite())).exact(),
        ) else {
            continue;
        };
        if n == 0 {
            continue;
        }
        let made = |p: &UgolkiPosition, c: Color| p.moves_made(c);
        let legal = position.legal_moves();
        let mut counts = Vec::new();
        let mut results = Vec::new();
        for &mv in &legal {
            let next = position.play(mv).unwrap();
            let d = own.solve(next.placement_of(side)).exact().unwrap_or(u32::MAX / 2);
            let (wn, bn) = if side == Color::White { (d, m) } else { (m, d) };
            let w =
                race_outcome(&rules, made(&next, Color::White), made(&next, Color::Black), wn, bn);
            counts.push(d);
            results.push(rank(w, side));
        }
        let best_result = results.iter().copied().max().unwrap_or(0);
        let critical = results.iter().any(|&r| r < best_result);
        shortest_counted += 1;
        result_counted += critical as u32;
        for (i, exact_race) in [false, true].into_iter().enumerate() {
            let mut searcher = Searcher::new(16, Terms { exact_race, ..Terms::ALL });
            let best = searcher.search(position, &[], limits, |_| {}).best.unwrap();
            let at = legal.iter().position(|&mv| mv == best).unwrap();
            shortest[i] += (counts[at] == n - 1) as u32;
            if critical {
                kept[i] += (results[at] == best_result) as u32;
            }
        }
    }
    eprintln!(
        "{} separated positions: a shortest-race move in {} of {shortest_counted} without the \
         exact race, {} with it; the race's result kept in {} of {result_counted} positions \
         where a move could lose it without the exact race, {} with it",
        rows.len(),
        shortest[0],
        shortest[1],
        kept[0],
        kept[1]
    );
}
