//! The games: one module per game, and a catalog to find them by id and variant.
//!
//! **Architecture Invariant:** depends on `perfectplay-core` only. A game knows its rules, its
//! encodings and its symmetries; it knows nothing of solving, storage or user interfaces.

pub mod abrobad;
pub mod achi;
pub mod baghchal;
pub mod board;
pub mod chessendgame;
pub mod chomp;
pub mod chungtoi;
pub mod connect4;
mod cross;
pub mod dawsonschess;
pub mod dodgem;
pub mod fivefieldkono;
pub mod foxandgeese;
pub mod fuchsundhenne;
pub mod konane;
pub mod lgame;
pub mod morris;
pub mod mutorere;
pub mod quarto;
pub mod quickcross;
pub mod shifttactoe;
pub mod snake;
pub mod tactix;
pub mod themes;
pub mod threespot;
pub mod tictactoe;
pub mod tictactwo;
pub mod tootandotto;
pub mod topitop;

use perfectplay_core::Game;

pub use abrobad::Abrobad;
pub use achi::Achi;
pub use baghchal::BaghChal;
pub use chessendgame::ChessEndgame;
pub use chomp::Chomp;
pub use chungtoi::ChungToi;
pub use connect4::Connect4;
pub use dawsonschess::DawsonsChess;
pub use dodgem::Dodgem;
pub use fivefieldkono::{FiveFieldKono, StuckRule};
pub use foxandgeese::FoxAndGeese;
pub use fuchsundhenne::FuchsUndHenne;
pub use konane::{Konane, KonaneStart};
pub use lgame::LGame;
pub use morris::Morris;
pub use mutorere::MuTorere;
pub use quarto::Quarto;
pub use quickcross::QuickCross;
pub use shifttactoe::ShiftTacToe;
pub use snake::Snake;
pub use tactix::TacTix;
pub use threespot::ThreeSpot;
pub use tictactoe::TicTacToe;
pub use tictactwo::TicTacTwo;
pub use tootandotto::TootAndOtto;
pub use topitop::Topitop;

/// A catalog entry's constructor from a game's: every game is made from its variant's name
/// (`from_variant`, or a family's constructor per game: Morris's `nine`, `six`, `three`).
macro_rules! made_by {
    ($constructor:path) => {
        |v| $constructor(v).map(|g| Box::new(g) as Box<dyn Game>)
    };
}

/// `from_variant` of a game without variants: `regular` is the game.
pub(crate) fn only_regular<G: Default>(variant: &str) -> Result<G, String> {
    (variant == "regular").then(G::default).ok_or_else(|| "regular".into())
}

/// A game in the catalog.
#[derive(Debug)]
pub struct CatalogEntry {
    /// The id used on the command line and in URLs.
    pub id: &'static str,
    /// Human-readable name.
    pub name: &'static str,
    /// The variant used when none is named.
    pub default_variant: &'static str,
    /// How variants are named, for listings and error messages.
    pub variant_syntax: &'static str,
    /// Variants worth listing (a game may accept more, see `variant_syntax`).
    pub listed_variants: &'static [&'static str],
    /// Variants not listed that the conformance suite walks as well (board shapes and sizes
    /// whose code paths the listed ones do not reach).
    pub also_checked: &'static [&'static str],
    make: fn(&str) -> Result<Box<dyn Game>, String>,
    /// The game's module file, whose header is the rules ([`rules`]).
    source: &'static str,
}

impl CatalogEntry {
    /// Builds the named variant (the default if `None`).
    pub fn variant(&self, variant: Option<&str>) -> Result<Box<dyn Game>, LookupError> {
        let v = variant.unwrap_or(self.default_variant);
        (self.make)(v).map_err(|reason| LookupError::UnknownVariant {
            game: self.id,
            variant: v.to_string(),
            expected: reason,
            listed: self.listed_variants.iter().map(|s| s.to_string()).collect(),
        })
    }
}

/// Why a game could not be found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LookupError {
    /// No game has this id.
    UnknownGame {
        /// The id asked for.
        id: String,
        /// The ids there are.
        known: Vec<&'static str>,
    },
    /// The game has no such variant.
    UnknownVariant {
        /// The game.
        game: &'static str,
        /// The variant asked for.
        variant: String,
        /// The form variants take.
        expected: String,
        /// Some valid variants.
        listed: Vec<String>,
    },
}

impl std::fmt::Display for LookupError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LookupError::UnknownGame { id, known } => {
                write!(f, "unknown game {id:?}; expected one of: {}", known.join(", "))
            }
            LookupError::UnknownVariant { game, variant, expected, listed } => write!(
                f,
                "unknown variant {variant:?} of {game}; expected {expected}; for example: {}",
                listed.join(", ")
            ),
        }
    }
}

impl std::error::Error for LookupError {}

const KONANE_VARIANTS: &[&str] = &[
    "4x4-corner",
    "4x4-center",
    "5x5-corner",
    "5x5-center",
    "5x6-corner",
    "6x5-corner",
    "6x6-corner",
    "6x6-center",
];

/// Every game, in listing order.
pub fn catalog() -> &'static [CatalogEntry] {
    static CATALOG: &[CatalogEntry] = &[
        CatalogEntry {
            id: "tictactoe",
            name: "Tic-Tac-Toe",
            default_variant: "regular",
            variant_syntax: "regular",
            listed_variants: &["regular"],
            also_checked: &[],
            source: include_str!("tictactoe.rs"),
            make: made_by!(TicTacToe::from_variant),
        },
        CatalogEntry {
            id: "tictactwo",
            name: "Tic-Tac-Two",
            default_variant: "regular",
            variant_syntax: "regular | 3-marks | 2-marks (small versions with fewer marks each)",
            listed_variants: &["regular", "2-marks"],
            also_checked: &["3-marks"],
            source: include_str!("tictactwo.rs"),
            make: made_by!(TicTacTwo::from_variant),
        },
        CatalogEntry {
            id: "konane",
            name: "Konane",
            default_variant: "5x5-corner",
            variant_syntax:
                "RxC-corner | RxC-center (rows x columns, 3 to 8 each, at most 63 cells)",
            listed_variants: KONANE_VARIANTS,
            also_checked: &["3x3-corner", "4x5-center", "7x8-corner", "7x8-center"],
            source: include_str!("konane.rs"),
            make: made_by!(Konane::from_variant),
        },
        CatalogEntry {
            id: "fivefieldkono",
            name: "Five Field Kono",
            default_variant: "regular",
            variant_syntax:
                "regular | lose-if-stuck | win-if-stuck, optionally prefixed by 4x4- (a small board)",
            listed_variants: &[
                "regular",
                "lose-if-stuck",
                "win-if-stuck",
                "4x4-regular",
                "4x4-lose-if-stuck",
                "4x4-win-if-stuck",
            ],
            also_checked: &[],
            source: include_str!("fivefieldkono.rs"),
            make: made_by!(FiveFieldKono::from_variant),
        },
        // New games: appended below, one entry each.
        CatalogEntry {
            id: "chomp",
            name: "Chomp",
            default_variant: "4x5",
            variant_syntax: "RxC (rows x columns, 1 to 15 each)",
            listed_variants: &[
                "2x2", "2x3", "3x3", "3x4", "4x4", "4x5", "5x5", "5x6", "6x6", "6x7", "7x7", "8x8",
                "10x10", "11x11",
            ],
            also_checked: &["1x1", "1x4", "5x2", "3x15", "15x15"],
            source: include_str!("chomp.rs"),
            make: made_by!(Chomp::from_variant),
        },
        CatalogEntry {
            id: "dawsonschess",
            name: "Dawson's Chess",
            default_variant: "9",
            variant_syntax: "n (the board length, 1 to 34)",
            listed_variants: &[
                "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15",
                "16", "17", "18", "19", "20", "24", "30",
            ],
            also_checked: &["34"],
            source: include_str!("dawsonschess.rs"),
            make: made_by!(DawsonsChess::from_variant),
        },
        CatalogEntry {
            id: "achi",
            name: "Achi",
            default_variant: "regular",
            variant_syntax: "regular",
            listed_variants: &["regular"],
            also_checked: &[],
            source: include_str!("achi.rs"),
            make: made_by!(Achi::from_variant),
        },
        CatalogEntry {
            id: "mutorere",
            name: "Mū Tōrere",
            default_variant: "regular",
            variant_syntax:
                "regular (a piece moves to the center only beside an opponent's) | no-putahi-rule",
            listed_variants: &["regular", "no-putahi-rule"],
            also_checked: &[],
            source: include_str!("mutorere.rs"),
            make: made_by!(MuTorere::from_variant),
        },
        CatalogEntry {
            id: "lgame",
            name: "L-game",
            default_variant: "regular",
            variant_syntax: "regular",
            listed_variants: &["regular"],
            also_checked: &[],
            source: include_str!("lgame.rs"),
            make: made_by!(LGame::from_variant),
        },
        CatalogEntry {
            id: "threespot",
            name: "3-Spot",
            default_variant: "regular",
            variant_syntax: "regular",
            listed_variants: &["regular"],
            also_checked: &[],
            source: include_str!("threespot.rs"),
            make: made_by!(ThreeSpot::from_variant),
        },
        CatalogEntry {
            id: "connect4",
            name: "Connect 4",
            default_variant: "4x5",
            variant_syntax: "WxH (columns x rows, 4 to 6 each, at most 30 slots)",
            listed_variants: &["4x4", "4x5", "5x4", "4x6", "5x5", "6x4"],
            also_checked: &["6x5", "5x6"],
            source: include_str!("connect4.rs"),
            make: made_by!(Connect4::from_variant),
        },
        CatalogEntry {
            id: "dodgem",
            name: "Dodgem",
            default_variant: "regular",
            variant_syntax: "regular (a player left without a move wins) | lose-if-stuck, \
                             optionally prefixed by 4x4- (the larger board)",
            listed_variants: &["regular", "lose-if-stuck", "4x4-regular"],
            also_checked: &["4x4-lose-if-stuck"],
            source: include_str!("dodgem.rs"),
            make: made_by!(Dodgem::from_variant),
        },
        CatalogEntry {
            id: "snake",
            name: "Snake",
            default_variant: "4x4",
            variant_syntax: "CxR: columns x rows, 3 to 6 each (4x4 is GamesmanClassic's board)",
            listed_variants: &["4x4", "5x5", "6x6"],
            also_checked: &["3x3", "3x5", "6x4"],
            source: include_str!("snake.rs"),
            make: made_by!(Snake::from_variant),
        },
        CatalogEntry {
            id: "tootandotto",
            name: "Toot and Otto",
            default_variant: "4x4",
            variant_syntax: "regular (6x4) | WxH (columns x rows, 4 to 6 each, at most 24 cells, \
                             a multiple of 4; W*H/4 of each letter per player)",
            listed_variants: &["4x4", "4x5", "5x4"],
            also_checked: &["regular", "4x6"],
            source: include_str!("tootandotto.rs"),
            make: made_by!(TootAndOtto::from_variant),
        },
        CatalogEntry {
            id: "shifttactoe",
            name: "Shift-Tac-Toe",
            default_variant: "regular",
            variant_syntax: "regular",
            listed_variants: &["regular"],
            also_checked: &[],
            source: include_str!("shifttactoe.rs"),
            make: made_by!(ShiftTacToe::from_variant),
        },
        CatalogEntry {
            id: "quickcross",
            name: "QuickCross",
            default_variant: "3x3",
            variant_syntax: "4x4 (four in a line) | 3x3 (three in a line)",
            listed_variants: &["3x3", "4x4"],
            also_checked: &[],
            source: include_str!("quickcross.rs"),
            make: made_by!(QuickCross::from_variant),
        },
        CatalogEntry {
            id: "chungtoi",
            name: "Chung-Toi",
            default_variant: "regular",
            variant_syntax: "regular",
            listed_variants: &["regular"],
            also_checked: &[],
            source: include_str!("chungtoi.rs"),
            make: made_by!(ChungToi::from_variant),
        },
        CatalogEntry {
            id: "chessendgame",
            name: "Chess Endgame",
            default_variant: "krk",
            variant_syntax: "kqk | krk (king and queen, or king and rook, against king)",
            listed_variants: &["kqk", "krk"],
            also_checked: &[],
            source: include_str!("chessendgame.rs"),
            make: made_by!(ChessEndgame::from_variant),
        },
        CatalogEntry {
            id: "tactix",
            name: "Tac Tix",
            default_variant: "4x4",
            variant_syntax: "NxN (normal play: no move loses) or NxN-misere (taking the last coin \
                             loses), a side from 1 to 4",
            listed_variants: &["3x3", "4x4", "3x3-misere", "4x4-misere"],
            also_checked: &["1x1", "2x2", "2x2-misere"],
            source: include_str!("tactix.rs"),
            make: made_by!(TacTix::from_variant),
        },
        CatalogEntry {
            id: "abrobad",
            name: "Abrobad",
            default_variant: "regular",
            variant_syntax: "regular",
            listed_variants: &["regular"],
            also_checked: &[],
            source: include_str!("abrobad.rs"),
            make: made_by!(Abrobad::from_variant),
        },
        CatalogEntry {
            id: "ninemensmorris",
            name: "Nine Men's Morris",
            default_variant: "regular",
            variant_syntax: morris::NINE_VARIANTS,
            listed_variants: &["regular", "mill-removal", "no-flying", "mill-removal-no-flying"],
            also_checked: &["regular/moving-3", "no-flying/moving-4"],
            source: include_str!("morris.rs"),
            make: made_by!(Morris::nine),
        },
        CatalogEntry {
            id: "sixmensmorris",
            name: "Six Men's Morris",
            default_variant: "regular",
            variant_syntax: "regular",
            listed_variants: &["regular"],
            also_checked: &[],
            source: include_str!("morris.rs"),
            make: made_by!(Morris::six),
        },
        CatalogEntry {
            id: "threemensmorris",
            name: "Three Men's Morris",
            default_variant: "regular",
            variant_syntax: "regular (rows, columns and diagonals) or no-diagonals",
            listed_variants: &["regular", "no-diagonals"],
            also_checked: &[],
            source: include_str!("morris.rs"),
            make: made_by!(Morris::three),
        },
        CatalogEntry {
            id: "baghchal",
            name: "Bagh-Chal",
            default_variant: "regular",
            variant_syntax: "regular | 3x3 (4 goats) | 4x4 (12 goats, no diagonals) | gamesman-3x3, \
                             gamesman-4x4 (GamesmanClassic's presets: 1 and 3 captures win)",
            listed_variants: &["regular", "3x3", "4x4", "gamesman-3x3", "gamesman-4x4"],
            also_checked: &[],
            source: include_str!("baghchal.rs"),
            make: made_by!(BaghChal::from_variant),
        },
        CatalogEntry {
            id: "topitop",
            name: "Topitop",
            default_variant: "regular",
            variant_syntax: "regular | small (one B, one R, two S, two L; one finished building wins)",
            listed_variants: &["regular", "small"],
            also_checked: &[],
            source: include_str!("topitop.rs"),
            make: made_by!(Topitop::from_variant),
        },
        CatalogEntry {
            id: "quarto",
            name: "Quarto",
            default_variant: "regular",
            variant_syntax: "regular (searched live) | 3x3 (8 pieces of three attributes)",
            listed_variants: &["regular", "3x3"],
            also_checked: &[],
            source: include_str!("quarto.rs"),
            make: made_by!(Quarto::from_variant),
        },
        CatalogEntry {
            id: "foxandgeese",
            name: "Fox and Geese",
            // The default is 002's selected 15 geese once solved; until then the
            // largest solved.
            default_variant: "15-geese",
            variant_syntax: "N-geese, N from 4 to 15 (002's selected rules; all solved: 4 to 14 \
                             draw, 15 the geese win)",
            listed_variants: &[
                "4-geese", "6-geese", "8-geese", "9-geese", "13-geese", "14-geese", "15-geese",
            ],
            also_checked: &[],
            source: include_str!("foxandgeese.rs"),
            make: made_by!(FoxAndGeese::from_variant),
        },
        CatalogEntry {
            id: "fuchsundhenne",
            name: "Fuchs und Henne",
            default_variant: "9-hens",
            variant_syntax: "N-hens, N from 9 to 20 (002's selected rules), or N-hens-goal-G \
                             (G hens in the hen house win, fewer than G lose; G from 2 to 9)",
            listed_variants: &["9-hens", "13-hens", "20-hens"],
            also_checked: &["3-hens-goal-2", "5-hens-goal-3"],
            source: include_str!("fuchsundhenne.rs"),
            make: made_by!(FuchsUndHenne::from_variant),
        },
    ];
    CATALOG
}

/// Finds a game by id and builds a variant of it.
pub fn lookup(id: &str, variant: Option<&str>) -> Result<Box<dyn Game>, LookupError> {
    let entry = catalog().iter().find(|e| e.id == id).ok_or_else(|| LookupError::UnknownGame {
        id: id.to_string(),
        known: catalog().iter().map(|e| e.id).collect(),
    })?;
    entry.variant(variant)
}

/// A game's rules in words (Markdown): its module's header up to the line that begins its
/// encoding ("Position code"), so the rules are written once, beside the code that plays them.
pub fn rules(id: &str) -> Option<String> {
    let source = catalog().iter().find(|e| e.id == id)?.source;
    let header: Vec<&str> = source
        .lines()
        .map_while(|l| l.strip_prefix("//!"))
        .map(|l| l.strip_prefix(' ').unwrap_or(l))
        .take_while(|l| !l.trim_start_matches("**").starts_with("Position code"))
        .collect();
    let paragraphs: Vec<String> = header
        .split(|l| l.trim().is_empty())
        .filter(|p| !p.is_empty())
        .map(|p| p.join("\n"))
        .collect();
    // Rustdoc links (`[`Stacks`]`) read as code spans.
    let text = paragraphs.join("\n\n").replace("[`", "`").replace("`]", "`");
    (!text.is_empty()).then_some(text)
}

/// Checks a tier that `game` says variant `other` shares ([`TierIndex::variants_sharing`]):
/// `other` has it, of the same size, with the same positions at its first and last index and at
/// `samples` indices drawn by `draw`, and at each the same primitive value and the same children
/// at the same places.
///
/// [`TierIndex::variants_sharing`]: perfectplay_core::TierIndex::variants_sharing
#[cfg(test)]
pub(crate) fn assert_tier_shared(
    game: &dyn perfectplay_core::Game,
    other: &dyn perfectplay_core::Game,
    t: perfectplay_core::Tier,
    draw: &mut dyn FnMut() -> u64,
    samples: usize,
) {
    use perfectplay_core::GameExt;
    let name = other.variant();
    assert!(other.tiers().contains(&t), "{name} lacks {t:?}");
    let size = game.tier_size(t);
    assert_eq!(other.tier_size(t), size);
    let (mut children, mut located, mut found) = (Vec::new(), Vec::new(), Vec::new());
    for i in [0, size - 1].into_iter().chain((0..samples).map(|_| draw() % size)) {
        let p = game.tier_position(t, i);
        assert_eq!(other.tier_position(t, i), p, "{name}, {t:?}, index {i}");
        let Some(p) = p else { continue };
        assert_eq!(game.primitive(p), other.primitive(p), "{name}, {t:?}, index {i}");
        for (g, list) in [(game, &mut located), (other, &mut found)] {
            children.clear();
            g.children(p, &mut children);
            list.clear();
            list.extend(children.iter().map(|&c| (g.tier(c), g.tier_index(g.canonical(c)))));
            list.sort_unstable();
        }
        assert_eq!(located, found, "{name}, {t:?}, index {i}");
    }
}

#[cfg(test)]
mod rules_tests {
    #[test]
    fn every_game_has_rules_in_words_without_its_encoding() {
        for entry in crate::catalog() {
            let rules =
                crate::rules(entry.id).unwrap_or_else(|| panic!("{} has no rules", entry.id));
            assert!(rules.len() > 60, "{}: {rules}", entry.id);
            assert!(!rules.contains("Position code"), "{}: {rules}", entry.id);
        }
        assert!(crate::rules("tictactoe").unwrap().contains("three in a row wins"));
    }

    /// Each listed variant of a game with several says in its own words how it differs.
    #[test]
    fn listed_variants_have_distinct_descriptions() {
        use std::collections::HashSet;
        for entry in crate::catalog().iter().filter(|e| e.listed_variants.len() > 1) {
            let said: HashSet<String> = entry
                .listed_variants
                .iter()
                .map(|v| entry.variant(Some(v)).unwrap().variant_description())
                .collect();
            assert_eq!(said.len(), entry.listed_variants.len(), "{}: {said:?}", entry.id);
        }
        let konane = crate::lookup("konane", Some("6x6-center")).unwrap();
        assert_eq!(
            konane.variant_description(),
            "6 rows of 6 cells; the two marbles in the middle are removed first"
        );
    }
}
