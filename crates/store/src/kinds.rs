//! The small closed sets stored as text: sides, results, modes, levels, statuses.

use std::fmt;
use std::str::FromStr;

macro_rules! text_enum {
    ($(#[$doc:meta])* $name:ident, $what:literal { $($(#[$vdoc:meta])* $variant:ident = $text:literal),+ $(,)? }) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $name {
            $($(#[$vdoc])* $variant),+
        }

        impl $name {
            /// Every value.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The stored and API text.
            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $text),+
                }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl FromStr for $name {
            type Err = String;
            fn from_str(s: &str) -> Result<Self, String> {
                match s.trim().to_ascii_lowercase().as_str() {
                    $($text => Ok($name::$variant),)+
                    _ => Err(format!(
                        "unknown {} {:?}: expected one of {}",
                        $what,
                        s,
                        [$($text),+].join(", ")
                    )),
                }
            }
        }
    };
}

text_enum!(
    /// A side of the board.
    Side, "side" { /** White. */ White = "white", /** Black. */ Black = "black" }
);
text_enum!(
    /// A game's result.
    Winner, "result" { /** White won. */ White = "white", /** Black won. */ Black = "black",
    /** Drawn. */ Draw = "draw" }
);
text_enum!(
    /// Against whom a game is played.
    Mode, "opponent" { /** The computer. */ Computer = "computer",
    /** A friend invited by a link. */ Friend = "friend",
    /** Two people on one device. */ Hotseat = "hotseat" }
);
text_enum!(
    /// The computer's strength.
    Level, "level" { /** Easy. */ Easy = "easy", /** Medium. */ Medium = "medium",
    /** Hard. */ Hard = "hard", /** Insane. */ Insane = "insane" }
);
text_enum!(
    /// Where a game stands.
    Status, "status" { /** A friend game whose second seat is free. */ Waiting = "waiting",
    /** Being played. */ Playing = "playing", /** Over, with a result. */ Finished = "finished",
    /** Ended before both sides moved; no result. */ Aborted = "aborted" }
);

impl Side {
    /// The other side.
    pub fn opposite(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }
}

impl Status {
    /// Whether the game is over (finished or aborted).
    pub fn is_over(self) -> bool {
        matches!(self, Status::Finished | Status::Aborted)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_round_trip() {
        for s in Side::ALL {
            assert_eq!(s.as_str().parse::<Side>(), Ok(*s));
        }
        for m in Mode::ALL {
            assert_eq!(m.as_str().parse::<Mode>(), Ok(*m));
        }
        for l in Level::ALL {
            assert_eq!(l.to_string().parse::<Level>(), Ok(*l));
        }
        assert_eq!("Insane".parse::<Level>(), Ok(Level::Insane));
        assert_eq!(
            "robot".parse::<Mode>(),
            Err("unknown opponent \"robot\": expected one of computer, friend, hotseat".into())
        );
    }
}
