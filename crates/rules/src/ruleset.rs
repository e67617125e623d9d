//! Every game doska plays, by its one canonical text: a draughts rule set id or an Ugolki
//! rule set text. This text is the `--variant` value, the API's, and the key of stats and URLs.

use crate::ugolki::{RulesTextError, UgolkiRules};
use crate::variant::{UnknownVariant, Variant};
use std::fmt;
use std::str::FromStr;

/// A draughts rule set or an Ugolki rule set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuleSet {
    /// One of the 14 draughts rule sets.
    Draughts(Variant),
    /// Ugolki with its parameters.
    Ugolki(UgolkiRules),
}

/// Why a rule set text was not accepted.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RuleSetError {
    /// Not a draughts rule set id.
    #[error("{0} (or an Ugolki rule set such as ugolki, ugolki-brainking, ugolki:dirs=8)")]
    Draughts(UnknownVariant),
    /// A bad Ugolki rule set text.
    #[error(transparent)]
    Ugolki(#[from] RulesTextError),
}

impl FromStr for RuleSet {
    type Err = RuleSetError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s.trim().to_ascii_lowercase().starts_with("ugolki") {
            Ok(RuleSet::Ugolki(UgolkiRules::parse(s)?))
        } else {
            s.parse().map(RuleSet::Draughts).map_err(RuleSetError::Draughts)
        }
    }
}

impl fmt::Display for RuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RuleSet::Draughts(v) => write!(f, "{v}"),
            RuleSet::Ugolki(u) => write!(f, "{u}"),
        }
    }
}
