//! A second move generator, written straight from the seed sentences with no bitboards and no
//! reachability argument: a grid of `Option<Color>` and a recursive depth-first search over
//! every chain of jumps that never revisits a square. The fast generator must produce the same
//! (from, to) set in every position.

use std::collections::{HashMap, HashSet};

use super::{Rng, sq};
use crate::Color;
use crate::ugolki::{
    BoardSize, Directions, HomeShape, LeaveHalf, LeaveHome, PRESETS, UgolkiMove, UgolkiPosition,
    UgolkiRules, perft,
};

/// A board as a plain grid, `cells[rank][file]`.
#[derive(Clone)]
pub(super) struct Naive {
    width: i32,
    diagonals: bool,
    cells: Vec<Vec<Option<Color>>>,
    side: Color,
}

impl Naive {
    pub(super) fn of(position: &UgolkiPosition) -> Naive {
        let width = i32::from(position.rules().board.width());
        let cells = (0..width)
            .map(|r| {
                (0..width)
                    .map(|f| {
                        position.piece_at(crate::ugolki::Square::new(f as u8, r as u8).unwrap())
                    })
                    .collect()
            })
            .collect();
        Naive {
            width,
            diagonals: position.rules().directions == Directions::All,
            cells,
            side: position.side_to_move(),
        }
    }

    fn get(&self, f: i32, r: i32) -> Option<Option<Color>> {
        if f < 0 || r < 0 || f >= self.width || r >= self.width {
            return None; // off the board
        }
        Some(self.cells[r as usize][f as usize])
    }

    fn dirs(&self) -> Vec<(i32, i32)> {
        // Seed 000: "вправо, влево, вперёд или назад"; seed 001: "в любом направлении".
        let mut d = vec![(1, 0), (-1, 0), (0, 1), (0, -1)];
        if self.diagonals {
            d.extend([(1, 1), (1, -1), (-1, 1), (-1, -1)]);
        }
        d
    }

    /// Every legal (from, to) of the side to move, with the fewest jumps that reach `to`
    /// (0 for a step), or `None` when the side must pass.
    pub(super) fn moves(&self) -> Option<HashMap<(String, String), usize>> {
        let mut out = HashMap::new();
        for r in 0..self.width {
            for f in 0..self.width {
                if self.cells[r as usize][f as usize] != Some(self.side) {
                    continue;
                }
                let from = name(f, r);
                for (df, dr) in self.dirs() {
                    if self.get(f + df, r + dr) == Some(None) {
                        out.insert((from.clone(), name(f + df, r + dr)), 0);
                    }
                }
                // The piece is lifted for the chain: its start square is empty.
                let mut board = self.clone();
                board.cells[r as usize][f as usize] = None;
                let mut visited = vec![(f, r)];
                board.chains(&from, &mut visited, &mut out);
            }
        }
        (!out.is_empty()).then_some(out)
    }

    fn chains(
        &self,
        from: &str,
        visited: &mut Vec<(i32, i32)>,
        out: &mut HashMap<(String, String), usize>,
    ) {
        let &(f, r) = visited.last().unwrap();
        for (df, dr) in self.dirs() {
            let over = self.get(f + df, r + dr);
            let land = (f + 2 * df, r + 2 * dr);
            if matches!(over, Some(Some(_)))
                && self.get(land.0, land.1) == Some(None)
                && !visited.contains(&land)
            {
                let jumps = visited.len();
                let best = out.entry((from.to_string(), name(land.0, land.1))).or_insert(jumps);
                *best = (*best).min(jumps);
                visited.push(land);
                self.chains(from, visited, out);
                visited.pop();
            }
        }
    }

    fn play(&self, from: &str, to: &str) -> Naive {
        let mut next = self.clone();
        let (a, b) = (sq(from), sq(to));
        next.cells[a.rank() as usize][a.file() as usize] = None;
        next.cells[b.rank() as usize][b.file() as usize] = Some(self.side);
        next.side = self.side.opposite();
        next
    }

    pub(super) fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        match self.moves() {
            None => {
                let mut passed = self.clone();
                passed.side = self.side.opposite();
                passed.perft(depth - 1)
            }
            Some(moves) => moves.keys().map(|(f, t)| self.play(f, t).perft(depth - 1)).sum(),
        }
    }
}

fn name(f: i32, r: i32) -> String {
    format!("{}{}", (b'a' + f as u8) as char, r + 1)
}

/// Compares the fast generator with the naive one in `position`; also checks every path.
pub(super) fn compare(position: &UgolkiPosition) {
    let naive = Naive::of(position).moves();
    let fast = position.legal_moves();
    let fen = position.to_fen();
    match naive {
        None => assert_eq!(fast, vec![UgolkiMove::Pass], "{fen}"),
        Some(naive) => {
            let fast_set: HashSet<(String, String)> = fast
                .iter()
                .map(|mv| (mv.from().unwrap().to_string(), mv.to().unwrap().to_string()))
                .collect();
            assert_eq!(fast_set.len(), fast.len(), "duplicate moves in {fen}");
            let naive_set: HashSet<(String, String)> = naive.keys().cloned().collect();
            assert_eq!(fast_set, naive_set, "{fen}");
            for mv in &fast {
                let path = position.path(*mv).unwrap();
                let key = (mv.from().unwrap().to_string(), mv.to().unwrap().to_string());
                let jumps = naive[&key];
                match mv {
                    UgolkiMove::Step { .. } => assert_eq!(jumps, 0, "{fen} {mv}"),
                    UgolkiMove::Jump { .. } => {
                        // One shortest route, which the move-text reader accepts as a path.
                        assert_eq!(path.squares().len(), jumps + 1, "{fen} {mv} {path}");
                        assert_eq!(position.parse_move(&path.to_string()), Ok(*mv), "{fen}");
                    }
                    UgolkiMove::Pass => unreachable!(),
                }
            }
        }
    }
}

/// Literal start squares from seed 000 and docs/rules/ugolki.md, and their point reflections.
#[test]
fn start_positions_match_the_rule_book() {
    // Seed 000: "белые — в левом нижнем углу (клетки a1–c3), чёрные — в правом верхнем (f6–h8)".
    let ugolki = UgolkiPosition::start(UgolkiRules::UGOLKI);
    assert_eq!(names(ugolki.pieces(Color::White)), "a1 b1 c1 a2 b2 c2 a3 b3 c3");
    assert_eq!(names(ugolki.pieces(Color::Black)), "f6 g6 h6 f7 g7 h7 f8 g8 h8");
    assert_eq!(ugolki.side_to_move(), Color::White);
    let ten = UgolkiPosition::start(UgolkiRules::BRAINKING_10);
    assert_eq!(names(ten.pieces(Color::White)), "a1 b1 c1 d1 a2 b2 c2 d2 a3 b3 c3 d3 a4 b4 c4 d4");
    assert_eq!(
        names(ten.pieces(Color::Black)),
        "g7 h7 i7 j7 g8 h8 i8 j8 g9 h9 i9 j9 g10 h10 i10 j10"
    );
    // Seed 003: "Дом может иметь три варианта размещения шашек: 3х3, 3х4, и углом."
    let rect = UgolkiRules { home: HomeShape::Rect3x4, ..UgolkiRules::UGOLKI };
    assert_eq!(names(rect.home_squares(Color::White)), "a1 b1 c1 d1 a2 b2 c2 d2 a3 b3 c3 d3");
    assert_eq!(names(rect.home_squares(Color::Black)), "e6 f6 g6 h6 e7 f7 g7 h7 e8 f8 g8 h8");
    let stair = UgolkiRules { home: HomeShape::Staircase, ..UgolkiRules::UGOLKI };
    assert_eq!(names(stair.home_squares(Color::White)), "a1 b1 c1 d1 a2 b2 c2 a3 b3 a4");
    assert_eq!(names(stair.home_squares(Color::Black)), "h5 g6 h6 f7 g7 h7 e8 f8 g8 h8");
}

fn names(squares: Vec<crate::ugolki::Square>) -> String {
    squares.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(" ")
}

/// Rule sets the cross-checks run over: the presets and customs covering every board, home
/// shape and direction set.
fn rule_sets() -> Vec<UgolkiRules> {
    let mut out: Vec<UgolkiRules> = PRESETS.iter().map(|&(_, r)| r).collect();
    for (board, home, directions) in [
        (BoardSize::Eight, HomeShape::Rect3x4, Directions::Orthogonal),
        (BoardSize::Eight, HomeShape::Staircase, Directions::All),
        (BoardSize::Eight, HomeShape::Square4, Directions::Orthogonal),
        (BoardSize::Eight, HomeShape::Square4, Directions::All),
        (BoardSize::Ten, HomeShape::Square3, Directions::Orthogonal),
        (BoardSize::Ten, HomeShape::Square4, Directions::Orthogonal),
    ] {
        out.push(UgolkiRules {
            board,
            home,
            directions,
            leave_home: LeaveHome::Off,
            leave_half: LeaveHalf::Off,
            equal_moves: true,
        });
    }
    out
}

#[test]
fn perft_matches_the_naive_generator() {
    for rules in rule_sets() {
        let start = UgolkiPosition::start(rules);
        let naive = Naive::of(&start);
        // Small trees only: depth 4 where the branching factor is low.
        let small = rules.board == BoardSize::Eight && rules.directions == Directions::Orthogonal;
        let depth = if small { 4 } else { 3 };
        for d in 1..=depth {
            assert_eq!(perft(&start, d), naive.perft(d), "{rules} depth {d}");
        }
    }
}

/// Random playouts from every start: the move sets agree position by position.
#[test]
fn random_playouts_match_the_naive_generator() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for rules in rule_sets() {
        for _ in 0..6 {
            let mut position = UgolkiPosition::start(rules);
            for _ in 0..160 {
                compare(&position);
                let moves = position.legal_moves();
                position = position.play(moves[rng.below(moves.len())]).unwrap();
            }
        }
    }
}

/// Random crowded boards (up to the 16 pieces a side of a 4x4 home), both sides to move:
/// long, turning chains over pieces of both colours.
#[test]
fn random_positions_match_the_naive_generator() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    for rules in rule_sets() {
        let crowded = UgolkiRules { home: HomeShape::Square4, ..rules };
        let width = usize::from(rules.board.width());
        for _ in 0..150 {
            let mut squares: Vec<String> =
                (0..width * width).map(|i| name((i % width) as i32, (i / width) as i32)).collect();
            let (white_count, black_count) = (1 + rng.below(16), 1 + rng.below(16));
            let mut pick = |n: usize| -> Vec<String> {
                (0..n).map(|_| squares.swap_remove(rng.below(squares.len()))).collect()
            };
            let white = pick(white_count);
            let black = pick(black_count);
            for side in ["W", "B"] {
                let fen = format!("{side}:W{}:B{}", white.join(","), black.join(","));
                compare(&UgolkiPosition::from_fen(crowded, &fen).unwrap());
            }
        }
    }
}
