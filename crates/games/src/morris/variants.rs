//! The family's games and their variants: the constructors, and each game's catalog entry.

use super::*;
use crate::CatalogEntry;

/// Variant names of Nine Men's Morris.
pub const NINE_VARIANTS: &str =
    "regular, mill-removal, no-flying or mill-removal-no-flying, optionally followed by \
     /moving-N (the moving phase alone, at most N pieces a side, 3 <= N <= 9)";

impl Morris {
    /// Nine Men's Morris: `variant` is one of [`NINE_VARIANTS`].
    pub fn nine(variant: &str) -> Result<Morris, String> {
        let (rules, moving) = match variant.split_once("/moving-") {
            Some((rules, n)) => {
                let n: u32 = n.parse().map_err(|_| NINE_VARIANTS.to_string())?;
                if !(3..=9).contains(&n) {
                    return Err(NINE_VARIANTS.into());
                }
                (rules, Some(n))
            }
            None => (variant, None),
        };
        let (flying, removal) = match rules {
            "regular" => (true, Removal::NotInMill),
            "mill-removal" => (true, Removal::Any),
            "no-flying" => (false, Removal::NotInMill),
            "mill-removal-no-flying" => (false, Removal::Any),
            _ => return Err(NINE_VARIANTS.into()),
        };
        Ok(Morris {
            kind: Kind::Nine,
            layout: Layout::shared(Kind::Nine, true),
            pieces: 9,
            flying,
            removal,
            diagonals: true,
            moving_only: moving,
        })
    }

    /// Six Men's Morris (variant `regular`).
    pub fn six(variant: &str) -> Result<Morris, String> {
        if variant != "regular" {
            return Err("regular".into());
        }
        Ok(Morris {
            kind: Kind::Six,
            layout: Layout::shared(Kind::Six, true),
            pieces: 6,
            flying: true,
            removal: Removal::NotInMill,
            diagonals: true,
            moving_only: None,
        })
    }

    /// Three Men's Morris (variants `regular`, `no-diagonals`).
    pub fn three(variant: &str) -> Result<Morris, String> {
        let diagonals = match variant {
            "regular" => true,
            "no-diagonals" => false,
            _ => return Err("regular or no-diagonals".into()),
        };
        Ok(Morris {
            kind: Kind::Three,
            layout: Layout::shared(Kind::Three, diagonals),
            pieces: 3,
            flying: false,
            removal: Removal::NotInMill,
            diagonals,
            moving_only: None,
        })
    }
}

impl Morris {
    /// The catalog's entry of this game of the family.
    pub(super) fn entry(&self) -> &'static CatalogEntry {
        match self.kind {
            Kind::Nine => &NINE,
            Kind::Six => &SIX,
            Kind::Three => &THREE,
        }
    }
}
