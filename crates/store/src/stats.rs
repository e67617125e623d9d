//! Stats from stored results: a player's per rule set and per level (friend and hot-seat games
//! in buckets of their own), and the site's per rule set. Computed from the games themselves
//! on request, so they can never drift from the record.
//!
//! A hot-seat game is two people at one device: it is neither a win nor a loss of the person
//! holding it. Its bucket counts games and results by colour; its wins, losses and streaks
//! stay zero.

use crate::{Side, Winner};
use serde::Serialize;
use std::collections::BTreeMap;

/// One finished game of a player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResultRow {
    /// Rule set text.
    pub rules: String,
    /// `computer:<level>`, `friend` or `hotseat`.
    pub bucket: String,
    /// The player's side (hot-seat: the side the creator chose).
    pub side: Side,
    /// The result.
    pub winner: Winner,
    /// The player asked the engine for a hint in this game.
    pub hinted: bool,
}

/// Finished games of one rule set with one result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SiteRow {
    /// Rule set text.
    pub rules: String,
    /// The result.
    pub winner: Winner,
    /// How many games.
    pub games: i64,
}

/// A player's record in one rule set and bucket.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlayerBucket {
    /// Rule set text.
    pub rules: String,
    /// `computer:<level>`, `friend` or `hotseat`.
    pub bucket: String,
    /// Games finished.
    pub games: u64,
    /// Won.
    pub wins: u64,
    /// Lost.
    pub losses: u64,
    /// Drawn.
    pub draws: u64,
    /// Won by White (in any bucket; the only results a hot-seat bucket has, with draws).
    pub white_wins: u64,
    /// Won by Black.
    pub black_wins: u64,
    /// Wins as a percentage of games, one decimal.
    pub win_pct: f64,
    /// Wins in a row up to the latest game.
    pub streak: u64,
    /// The longest run of wins.
    pub best_streak: u64,
    /// Games in which the player asked for hints.
    pub hinted: u64,
    /// Wins in a row without a hint up to the latest game (a win with hints ends it).
    pub clean_streak: u64,
}

/// The site's results in one rule set.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SiteStats {
    /// Rule set text.
    pub rules: String,
    /// Games finished.
    pub games: u64,
    /// Won by White.
    pub white_wins: u64,
    /// Won by Black.
    pub black_wins: u64,
    /// Drawn.
    pub draws: u64,
    /// Percentages of games, one decimal.
    pub white_pct: f64,
    /// Percentages of games, one decimal.
    pub black_pct: f64,
    /// Percentages of games, one decimal.
    pub draw_pct: f64,
}

/// The bucket of games of two people on one device.
pub const HOTSEAT: &str = "hotseat";

fn pct(part: u64, whole: u64) -> f64 {
    if whole == 0 { 0.0 } else { (part as f64 * 1000.0 / whole as f64).round() / 10.0 }
}

/// A player's buckets from its results, oldest first.
pub fn player_buckets(rows: &[ResultRow]) -> Vec<PlayerBucket> {
    let mut buckets: BTreeMap<(String, String), PlayerBucket> = BTreeMap::new();
    for r in rows {
        let b =
            buckets.entry((r.rules.clone(), r.bucket.clone())).or_insert_with(|| PlayerBucket {
                rules: r.rules.clone(),
                bucket: r.bucket.clone(),
                games: 0,
                wins: 0,
                losses: 0,
                draws: 0,
                white_wins: 0,
                black_wins: 0,
                win_pct: 0.0,
                streak: 0,
                best_streak: 0,
                hinted: 0,
                clean_streak: 0,
            });
        b.games += 1;
        if r.hinted {
            b.hinted += 1;
        }
        match r.winner {
            Winner::White => b.white_wins += 1,
            Winner::Black => b.black_wins += 1,
            Winner::Draw => {}
        }
        if r.bucket == HOTSEAT {
            if r.winner == Winner::Draw {
                b.draws += 1;
            }
            continue;
        }
        match (r.winner, r.side) {
            (Winner::Draw, _) => {
                b.draws += 1;
                b.streak = 0;
                b.clean_streak = 0;
            }
            (Winner::White, Side::White) | (Winner::Black, Side::Black) => {
                b.wins += 1;
                b.streak += 1;
                b.best_streak = b.best_streak.max(b.streak);
                b.clean_streak = if r.hinted { 0 } else { b.clean_streak + 1 };
            }
            _ => {
                b.losses += 1;
                b.streak = 0;
                b.clean_streak = 0;
            }
        }
    }
    buckets
        .into_values()
        .map(|mut b| {
            b.win_pct = pct(b.wins, b.games);
            b
        })
        .collect()
}

/// The site's stats per rule set.
pub fn site_stats(rows: &[SiteRow]) -> Vec<SiteStats> {
    let mut out: BTreeMap<String, SiteStats> = BTreeMap::new();
    for r in rows {
        let s = out.entry(r.rules.clone()).or_insert_with(|| SiteStats {
            rules: r.rules.clone(),
            games: 0,
            white_wins: 0,
            black_wins: 0,
            draws: 0,
            white_pct: 0.0,
            black_pct: 0.0,
            draw_pct: 0.0,
        });
        let n = u64::try_from(r.games).unwrap_or(0);
        s.games += n;
        match r.winner {
            Winner::White => s.white_wins += n,
            Winner::Black => s.black_wins += n,
            Winner::Draw => s.draws += n,
        }
    }
    out.into_values()
        .map(|mut s| {
            s.white_pct = pct(s.white_wins, s.games);
            s.black_pct = pct(s.black_wins, s.games);
            s.draw_pct = pct(s.draws, s.games);
            s
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(bucket: &str, side: Side, winner: Winner) -> ResultRow {
        ResultRow { rules: "russian".into(), bucket: bucket.into(), side, winner, hinted: false }
    }

    #[test]
    fn streaks_and_buckets() {
        use Side::*;
        let rows = [
            row("computer:easy", White, Winner::White),
            row("computer:easy", Black, Winner::Black),
            row("computer:easy", White, Winner::Black),
            row("friend", White, Winner::Draw),
            row("computer:easy", White, Winner::White),
            row("computer:easy", Black, Winner::Black),
            row("computer:easy", Black, Winner::Black),
            row("computer:hard", Black, Winner::White),
        ];
        let b = player_buckets(&rows);
        assert_eq!(b.len(), 3);
        let easy = &b[0];
        assert_eq!(easy.bucket, "computer:easy");
        assert_eq!((easy.games, easy.wins, easy.losses, easy.draws), (6, 5, 1, 0));
        assert_eq!((easy.streak, easy.best_streak), (3, 3));
        assert_eq!(easy.win_pct, 83.3);
        assert_eq!((b[1].bucket.as_str(), b[1].losses, b[1].win_pct), ("computer:hard", 1, 0.0));
        assert_eq!((b[2].bucket.as_str(), b[2].draws, b[2].streak), ("friend", 1, 0));
        assert_eq!((easy.white_wins, easy.black_wins), (2, 4));
    }

    #[test]
    fn a_win_with_hints_is_a_win_but_not_a_clean_streak() {
        use Side::*;
        let hinted =
            |side, winner| ResultRow { hinted: true, ..row("computer:hard", side, winner) };
        let rows = [
            row("computer:hard", White, Winner::White),
            row("computer:hard", White, Winner::White),
            hinted(White, Winner::White),
            row("computer:hard", Black, Winner::Black),
            hinted(Black, Winner::White),
        ];
        let b = &player_buckets(&rows[..4])[0];
        assert_eq!((b.wins, b.streak, b.clean_streak, b.hinted), (4, 4, 1, 1));
        let b = &player_buckets(&rows)[0];
        assert_eq!((b.wins, b.losses, b.streak, b.clean_streak, b.hinted), (4, 1, 0, 0, 2));
    }

    #[test]
    fn hotseat_is_neither_a_win_nor_a_loss() {
        use Side::*;
        let rows = [
            row("hotseat", White, Winner::White),
            row("hotseat", White, Winner::Black),
            row("hotseat", White, Winner::White),
            row("hotseat", White, Winner::Draw),
        ];
        let b = player_buckets(&rows);
        assert_eq!(b.len(), 1);
        let h = &b[0];
        assert_eq!((h.games, h.white_wins, h.black_wins, h.draws), (4, 2, 1, 1));
        assert_eq!((h.wins, h.losses, h.streak, h.best_streak, h.win_pct), (0, 0, 0, 0, 0.0));
    }

    #[test]
    fn site_percentages() {
        let rows = [
            SiteRow { rules: "russian".into(), winner: Winner::White, games: 2 },
            SiteRow { rules: "russian".into(), winner: Winner::Draw, games: 1 },
            SiteRow { rules: "ugolki".into(), winner: Winner::Black, games: 4 },
        ];
        let s = site_stats(&rows);
        assert_eq!(s[0].games, 3);
        assert_eq!((s[0].white_pct, s[0].black_pct, s[0].draw_pct), (66.7, 0.0, 33.3));
        assert_eq!((s[1].rules.as_str(), s[1].black_wins, s[1].black_pct), ("ugolki", 4, 100.0));
    }
}
