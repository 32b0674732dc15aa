//! The games: one module per game, and a catalog to find them by id and variant.
//!
//! **Architecture Invariant:** depends on `perfectplay-core` only. A game knows its rules, its
//! encodings and its symmetries; it knows nothing of solving, storage or user interfaces.

/// A catalog entry's constructor from a game's: every game is made from its variant's name
/// (`from_variant`, or a family's constructor per game: Morris's `nine`, `six`, `three`).
macro_rules! made_by {
    ($constructor:path) => {
        |v| $constructor(v).map(|g| Box::new(g) as Box<dyn perfectplay_core::Game>)
    };
}

/// Declares a game's catalog entry in its module: the constructor from a variant's name, the
/// module's file (whose header is the rules: [`rules`]), the id and the name; then the default
/// variant, how variants are named, those listed, and those the conformance suite walks as well.
/// A game whose one variant is `regular` names its type for the constructor (made by `Default`)
/// and leaves the variants out.
macro_rules! entry {
    // A game whose one variant is `regular`, made by `Default`.
    ($entry:ident = $game:ty, $file:literal, $id:literal, $name:literal) => {
        $crate::entry! {
            $entry = $crate::only_regular::<$game>, $file, $id, $name;
            default "regular"; syntax "regular"; listed &["regular"]; also &[]
        }
    };
    ($entry:ident = $make:path, $file:literal, $id:literal, $name:literal;
     default $default:literal; syntax $syntax:expr; listed $listed:expr; also $also:expr) => {
        pub(crate) static $entry: $crate::CatalogEntry = $crate::CatalogEntry {
            id: $id,
            name: $name,
            default_variant: $default,
            variant_syntax: $syntax,
            listed_variants: $listed,
            also_checked: $also,
            source: include_str!($file),
            make: made_by!($make),
        };
    };
}
pub(crate) use entry;

/// A game's identity in its `impl Game`, from its catalog entry, where it is declared once; with
/// a size class, the size class of every variant.
macro_rules! declared {
    ($entry:path) => {
        fn id(&self) -> &'static str {
            $entry.id
        }
        fn name(&self) -> &'static str {
            $entry.name
        }
    };
    ($entry:path, $size:ident) => {
        $crate::declared!($entry);
        fn size_class(&self) -> perfectplay_core::SizeClass {
            perfectplay_core::SizeClass::$size
        }
    };
}
pub(crate) use declared;

pub mod board;
mod cross;
mod prelude;
pub mod themes;

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

/// The constructor of a game whose one variant is `regular`: the game by `Default`.
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

/// The games: each its module and its catalog entries (declared in the module), one line a game,
/// in listing order.
macro_rules! games {
    ($($module:ident: $($entry:ident),+;)*) => {
        $(pub mod $module;)*

        /// Every game's entry, in listing order.
        static CATALOG: &[&CatalogEntry] = &[$($(&$module::$entry),+),*];
    };
}

games! {
    tictactoe: ENTRY;
    tictactwo: ENTRY;
    konane: ENTRY;
    fivefieldkono: ENTRY;
    chomp: ENTRY;
    dawsonschess: ENTRY;
    achi: ENTRY;
    mutorere: ENTRY;
    lgame: ENTRY;
    threespot: ENTRY;
    connect4: ENTRY;
    dodgem: ENTRY;
    snake: ENTRY;
    tootandotto: ENTRY;
    shifttactoe: ENTRY;
    quickcross: ENTRY;
    chungtoi: ENTRY;
    chessendgame: ENTRY;
    tactix: ENTRY;
    abrobad: ENTRY;
    morris: NINE, SIX, THREE;
    baghchal: ENTRY;
    topitop: ENTRY;
    quarto: ENTRY;
    foxandgeese: ENTRY;
    fuchsundhenne: ENTRY;
}

/// Every game, in listing order.
pub fn catalog() -> &'static [&'static CatalogEntry] {
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

/// The moves of the position `text` names, as text, sorted (for tests).
#[cfg(test)]
pub(crate) fn move_texts(game: &dyn perfectplay_core::Game, text: &str) -> Vec<String> {
    use perfectplay_core::GameExt;
    let p = game.parse_position(text).unwrap();
    let mut m: Vec<String> =
        game.legal_moves(p).iter().map(|&m| game.move_to_string(p, m)).collect();
    m.sort();
    m
}

/// The primitive value of the position `text` names (for tests).
#[cfg(test)]
pub(crate) fn primitive_of(
    game: &dyn perfectplay_core::Game,
    text: &str,
) -> Option<perfectplay_core::Value> {
    game.primitive(game.parse_position(text).unwrap())
}

/// Checks each position's primitive value: (the position's text, the value, why) (for tests).
#[cfg(test)]
pub(crate) fn assert_primitives(
    game: &dyn perfectplay_core::Game,
    cases: &[(&str, Option<perfectplay_core::Value>, &str)],
) {
    for &(text, value, why) in cases {
        assert_eq!(primitive_of(game, text), value, "{text}: {why}");
    }
}

/// Checks that the game refuses each of `texts` as a position (for tests).
#[cfg(test)]
pub(crate) fn assert_refused(game: &dyn perfectplay_core::Game, texts: &[&str]) {
    for text in texts {
        assert!(game.parse_position(text).is_err(), "{text} accepted");
    }
}

#[cfg(test)]
use perfectplay_core::KernelCache;

/// For tests: compares a kernel's [`TierKernel::children_outside`] with the children it locates,
/// for each (index, position) of `positions` in `tier` not primitive and accepted by `keep`;
/// returns how many positions had their children inside counted, and how many did not.
///
/// [`TierKernel::children_outside`]: perfectplay_core::TierKernel::children_outside
#[cfg(test)]
pub(crate) fn check_children_outside<G: Game + perfectplay_core::TierKernel>(
    game: &G,
    tier: perfectplay_core::Tier,
    positions: impl IntoIterator<Item = (u64, perfectplay_core::Position)>,
    mut keep: impl FnMut(u64, perfectplay_core::Position, &mut KernelCache) -> bool,
) -> (u64, u64) {
    let (mut counted, mut located) = (0, 0);
    let mut cache = KernelCache::default();
    for (i, p) in positions {
        if game.primitive(p).is_some() || !keep(i, p, &mut cache) {
            continue;
        }
        let mut all = Vec::new();
        game.child_locations_unsorted(p, &mut all, &mut cache);
        let mut outside = Vec::new();
        let Some(inside) = game.children_outside(p, &mut outside, &mut cache) else {
            located += 1;
            continue;
        };
        counted += 1;
        assert_eq!(inside as usize, all.iter().filter(|l| l.0 == tier).count());
        all.retain(|l| l.0 != tier);
        for v in [&mut all, &mut outside] {
            v.sort_unstable();
            v.dedup();
        }
        assert_eq!(outside, all, "{}", game.position_to_string(p));
    }
    (counted, located)
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
