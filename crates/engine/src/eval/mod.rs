//! Static evaluation, one module per game family. Scores are in hundredths of a man, from the
//! side to move's view.

pub mod draughts;
pub mod learned;
pub mod net;
pub mod race;
pub mod ugolki;
pub mod ugolki_learned;

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
    /// The learned evaluation ([`learned`], Ugolki: [`ugolki_learned`]) instead of the terms
    /// above, where the build has weights for the rule set (Ugolki: the preset).
    pub learned: bool,
    /// Draughts, with `learned`: the network ([`net`]) added to the embedded weights' score,
    /// where the build has one for the rule set (not over weights read from a file: it was
    /// fitted on top of the embedded ones).
    pub net: bool,
    /// Draughts: the exact values of an installed endgame database ([`crate::egdb`]) in
    /// place of a search, where the position is in it.
    pub egdb: bool,
    /// The opening book ([`crate::book`]) where the build has one for the rule set: its move
    /// instead of a search, in the positions it holds.
    pub book: bool,
    /// With `learned`: these weights (read from a file, `doska match --a-weights`) instead of
    /// the ones the build embeds, to measure one weights file against another.
    pub weights: Option<&'static learned::Evaluator>,
    /// The same for Ugolki: these weights for their preset instead of the embedded ones.
    pub ugolki_weights: Option<&'static ugolki_learned::Evaluator>,
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
        learned: false,
        net: false,
        egdb: false,
        book: false,
        weights: None,
        ugolki_weights: None,
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
        learned: true,
        net: true,
        egdb: true,
        book: true,
        weights: None,
        ugolki_weights: None,
    };

    /// The terms' names, as `doska match --a-without` takes them.
    pub const NAMES: [&'static str; 11] = [
        "advancement",
        "back_rank",
        "centre",
        "trades",
        "runaways",
        "free_kings",
        "exact_race",
        "learned",
        "net",
        "egdb",
        "book",
    ];

    /// The switch of the term called `name`, if there is one.
    fn switch(&mut self, name: &str) -> Option<&mut bool> {
        Some(match name {
            "advancement" => &mut self.advancement,
            "back_rank" => &mut self.back_rank,
            "centre" => &mut self.centre,
            "trades" => &mut self.trades,
            "runaways" => &mut self.runaways,
            "free_kings" => &mut self.free_kings,
            "exact_race" => &mut self.exact_race,
            "learned" => &mut self.learned,
            "net" => &mut self.net,
            "egdb" => &mut self.egdb,
            "book" => &mut self.book,
            _ => return None,
        })
    }

    /// These terms with the comma-separated `names` turned off.
    pub fn without(mut self, names: &str) -> Result<Terms, String> {
        for name in names.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            match self.switch(name) {
                Some(on) => *on = false,
                None => {
                    return Err(format!(
                        "unknown evaluation term {name:?}: expected one of {}",
                        Terms::NAMES.join(", ")
                    ));
                }
            }
        }
        Ok(self)
    }
}

#[cfg(test)]
mod tests {
    use super::Terms;

    #[test]
    fn terms_are_turned_off_by_name_and_unknown_names_are_refused() {
        let t = Terms::ALL.without("runaways, free_kings").unwrap();
        assert!(!t.runaways && !t.free_kings && t.centre && t.trades);
        assert_eq!(Terms::ALL.without("").unwrap(), Terms::ALL);
        let err = Terms::ALL.without("centre,tempo").unwrap_err();
        assert!(err.contains("\"tempo\"") && err.contains("free_kings"), "{err}");
    }
}
