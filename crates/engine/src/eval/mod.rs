//! Static evaluation, one module per game family. Scores are in hundredths of a man, from the
//! side to move's view.

pub mod draughts;
pub mod race;
pub mod ugolki;

/// Which evaluation terms are on: the levels differ in these (see [`crate::Level`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Terms {
    /// Men gain by advancing (draughts); pieces gain by racing (Ugolki: always on).
    pub advancement: bool,
    /// Men kept on the back row while the opponent has no king (draughts); Ugolki: the
    /// leave-home deadline.
    pub back_rank: bool,
    /// Pieces in the centre.
    pub centre: bool,
    /// Trade down when ahead.
    pub trades: bool,
    /// Men with a free road to the last row.
    pub runaways: bool,
    /// Kings that move freely (mobility of kings).
    pub free_kings: bool,
    /// Ugolki: once the armies have passed each other, each side's race solved exactly
    /// ([`race`]) when it fits the solver's budget. No effect in draughts.
    pub exact_race: bool,
}

impl Terms {
    /// Material only.
    pub const MATERIAL: Terms = Terms {
        advancement: false,
        back_rank: false,
        centre: false,
        trades: false,
        runaways: false,
        free_kings: false,
        exact_race: false,
    };
    /// Every term.
    pub const ALL: Terms = Terms {
        advancement: true,
        back_rank: true,
        centre: true,
        trades: true,
        runaways: true,
        free_kings: true,
        exact_race: true,
    };
}
