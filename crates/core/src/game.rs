//! The `Game` trait family: what a game must say about itself for the engine, the analysis and the
//! user interfaces to work with it.
//!
//! A game implements a small required core, [`Game`]: its rules (start, to-move, primitive, moves,
//! do-move), its notation (position and move text) and its [`SizeClass`]. Everything else is a
//! capability the game opts into by returning itself from one method, and whose methods are then
//! all required: a position space with tiers ([`Game::space`]: [`Tiers`], [`TierIndex`]),
//! symmetries ([`Symmetry`], with [`Exchange`] for the exchange of players), undo-moves
//! ([`UndoMoves`]) and an Image AutoGUI ([`ImageGui`], with [`MultipartMoves`]). Nothing has a
//! default that can be silently wrong for some game; the engine, the analysis and the server read
//! what a game declares through [`GameExt`], which no game implements itself.
//! Untrusted text is turned into positions and moves in exactly one place each, `parse_position`
//! and [`GameExt::parse_move`], which check what they return.

use std::fmt;

pub use crate::kernel::{
    children_located, indices_in_tier, InTier, KernelCache, Locations, RunLocations,
    SidedLocations, TierKernel,
};
use crate::value::Value;

/// A position in the game's compact fixed-size encoding. For a game with a dense position space
/// (see [`PositionSpace::Dense`]) this is the position's index in `0..size` (its perfect hash);
/// otherwise it is any 64-bit code the game chooses, and the engine stores only the codes it meets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Position(pub u64);

/// A move, in a code of the game's choosing, meaningful together with the position it is made from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Move(pub u32);

/// A tier (a layer of the position space). Every move leads to a position of the same tier or of a
/// lower one, so tiers can be solved from the lowest up. Loop-free games with a natural count
/// (pieces on the board, empty squares) use it to keep only a few layers in memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Tier(pub u32);

/// One of the two players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Player {
    /// The player who moves first from the start.
    First,
    /// The other player.
    Second,
}

impl Player {
    /// The second player where `second`, else the first.
    pub fn second_if(second: bool) -> Player {
        if second {
            Player::Second
        } else {
            Player::First
        }
    }

    /// The player of a turn number: 0 the first, 1 the second.
    pub fn of(turn: usize) -> Player {
        [Player::First, Player::Second][turn]
    }

    /// The opponent.
    pub fn other(self) -> Player {
        match self {
            Player::First => Player::Second,
            Player::Second => Player::First,
        }
    }
}

/// The shape of a game's position space, which decides how the engine stores it; a tiered shape
/// carries the game's tier capability.
#[derive(Clone, Copy)]
pub enum PositionSpace<'a> {
    /// Positions are the indices `0..size` of a perfect hash, all in tier 0; the engine solves
    /// them in flat arrays indexed by position (unreachable indices are solved too, harmlessly).
    Dense {
        /// The number of indices.
        size: u64,
    },
    /// Positions are sparse codes in a huge space; the engine discovers the reachable ones from the
    /// start, tier by tier (the game's [`Tiers`] if it has them, else one tier), and keeps each
    /// tier as a sorted array of the codes it reached.
    Sparse(Option<&'a dyn Tiers>),
    /// Positions are grouped in tiers, and each tier's canonical positions have a dense index
    /// `0..tier_size` of the game's own ([`TierIndex`]): the tier solver solves one tier at a
    /// time in flat arrays, with its child tiers' values at hand, and needs no discovery.
    Tiered(&'a dyn TierIndex),
}

impl PositionSpace<'_> {
    /// Whether this is [`PositionSpace::Tiered`].
    pub fn is_tiered(&self) -> bool {
        matches!(self, PositionSpace::Tiered(_))
    }

    /// The size of a dense space.
    pub fn dense_size(&self) -> Option<u64> {
        match self {
            PositionSpace::Dense { size } => Some(*size),
            _ => None,
        }
    }
}

impl fmt::Debug for PositionSpace<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionSpace::Dense { size } => write!(f, "Dense {{ size: {size} }}"),
            PositionSpace::Sparse(tiers) => write!(f, "Sparse(tiers: {})", tiers.is_some()),
            PositionSpace::Tiered(_) => write!(f, "Tiered"),
        }
    }
}

/// How long a variant takes to solve, as its author measured it: the server solves `Small`
/// variants in memory at start-up; `Large` ones wait for `perfectplay solve`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SizeClass {
    /// Solves in memory in a few seconds at most.
    Small,
    /// Needs `perfectplay solve` and a database file.
    Large,
}

impl SizeClass {
    /// `Small` where `small`, else `Large`.
    pub fn small_if(small: bool) -> SizeClass {
        [SizeClass::Large, SizeClass::Small][usize::from(small)]
    }
}

/// Why a text could not be read as a position or a move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseError {
    /// The text does not have the expected form.
    #[error("malformed {what} {text:?}: expected {expected}")]
    Malformed {
        /// "position" or "move".
        what: &'static str,
        /// The text that was given.
        text: String,
        /// The form that was expected.
        expected: String,
    },
    /// The text has the right form but does not describe a legal position.
    #[error("illegal position {text:?}: {reason}")]
    IllegalPosition {
        /// The text that was given.
        text: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The move is well formed but not legal here.
    #[error("illegal move {text:?}; legal moves: {}", legal.join(" "))]
    IllegalMove {
        /// The text that was given.
        text: String,
        /// The legal moves from this position, in the game's notation.
        legal: Vec<String>,
    },
}

/// A two-player, perfect-information game, one variant of it: the required core. Capabilities are
/// opted into by the methods at the end, each returning `Some(self)` (or the space with `self`);
/// their methods are then all required.
pub trait Game: Send + Sync {
    /// Short identifier used on the command line and in URLs (`tictactoe`, `konane`).
    fn id(&self) -> &'static str;
    /// Human-readable name.
    fn name(&self) -> &'static str;
    /// This variant's identifier. A game with one variant may keep this default, `regular`.
    fn variant(&self) -> String {
        "regular".into()
    }
    /// The variant in one line for listings ("6 columns of 4 slots; four in a line wins"). A game
    /// with one variant may keep this default; each variant of a game with several says how it
    /// differs.
    fn variant_description(&self) -> String {
        "The game's standard rules".into()
    }
    /// How long this variant takes to solve.
    fn size_class(&self) -> SizeClass;

    /// The start position.
    fn start(&self) -> Position;
    /// The player to move.
    fn to_move(&self, position: Position) -> Player;
    /// `Some(value)` if the game is over at `position`, from the view of the player to move.
    fn primitive(&self, position: Position) -> Option<Value>;
    /// Whether a position is primitive exactly where [`Game::children`] gives none (a game whose
    /// player who cannot move has lost, and that ends no other way): a solver may then ask for
    /// the children first, and [`Game::primitive`] only of a position without any. `false`
    /// unless the game says so; the conformance suite checks a game that does.
    fn primitive_only_without_moves(&self) -> bool {
        false
    }
    /// Appends the legal moves at a non-primitive position to `out`.
    fn moves(&self, position: Position, out: &mut Vec<Move>);
    /// The position after a legal move. Unchecked: see [`GameExt::play`] for the checked form.
    fn do_move(&self, position: Position, mv: Move) -> Position;

    /// The position in its one-line text form, which [`Game::parse_position`] reads back.
    fn position_to_string(&self, position: Position) -> String;
    /// Reads a position from its text form, checking that it is legal.
    fn parse_position(&self, text: &str) -> Result<Position, ParseError>;
    /// A move in the game's notation.
    fn move_to_string(&self, position: Position, mv: Move) -> String;
    /// The form of a move, for messages (`[a-c][1-3]`).
    fn move_syntax(&self) -> String;

    /// Appends the position after every legal move. Override only for speed (the conformance
    /// tests check it against `moves` and `do_move`).
    fn children(&self, position: Position, out: &mut Vec<Position>) {
        let mut moves = Vec::new();
        self.moves(position, &mut moves);
        out.extend(moves.into_iter().map(|m| self.do_move(position, m)));
    }

    /// The board drawn in text over several lines, for the terminal.
    fn board_text(&self, position: Position) -> String {
        self.position_to_string(position)
    }

    /// The names of the two players, first mover first (`["X", "O"]`).
    fn player_names(&self) -> [&'static str; 2] {
        ["first", "second"]
    }

    /// Capability: the shape of the position space, with the tier index of a tiered game.
    fn space(&self) -> PositionSpace<'_> {
        PositionSpace::Sparse(None)
    }

    /// Capability: the game's symmetries.
    fn symmetry(&self) -> Option<&dyn Symmetry> {
        None
    }

    /// Capability: undo-moves, for retrograde solving without reverse edges.
    fn undo(&self) -> Option<&dyn UndoMoves> {
        None
    }

    /// Capability: an Image AutoGUI (003 section 5.3).
    fn gui(&self) -> Option<&dyn ImageGui> {
        None
    }

    /// Capability: the tier engine's hot paths, each in one call (a game with symmetries and a
    /// tier index, for speed).
    fn kernel(&self) -> Option<&dyn TierKernel> {
        None
    }

    /// Capability: live solving's hot paths (a loop-free game searched from a position rather
    /// than solved whole: Quarto).
    fn search_kernel(&self) -> Option<&dyn SearchKernel> {
        None
    }
}

/// A search node: a game's own packing of a position for live search, cheaper to expand and to
/// key than a [`Position`] code (Quarto's holds the board, its pieces and the piece to place).
pub type Node = u128;

/// What a live search (`perfectplay_solve::AlphaBeta`) asks of a loop-free game at every
/// position, fused for speed: positions as [`Node`]s, a key for its table, and the children with
/// the values known without searching them.
pub trait SearchKernel: Send + Sync {
    /// A position as a node.
    fn search_node(&self, position: Position) -> Node;
    /// A node's position.
    fn search_position(&self, node: Node) -> Position;
    /// A node of a symmetric image of the position (so equal keys mean equal values), cheaper
    /// than [`Symmetry::canonical`]; the more symmetric positions share a key, the better.
    fn search_key(&self, node: Node) -> Node;
    /// Appends the children of a non-primitive node, each with its value when it is known
    /// without a search of the engine's: a primitive's, a win in 1 for a child whose player to
    /// move can end the game at once with a win, or one the kernel searched itself (near the
    /// end, where that is cheaper than the engine's table). Where a child is worth the best any
    /// child of the node can be to the mover (a primitive loss; or, where no move ends the game,
    /// a loss in 2), that child alone may be appended.
    fn search_children(&self, node: Node, out: &mut Vec<(Node, Option<crate::ValueRemoteness>)>);
    /// The most moves a game lasts (the highest remoteness there can be).
    fn longest_game(&self) -> u16;
    /// A prover of values alone made for the game, with a table of 2^`table_bits` entries;
    /// none by default (the engine's alpha-beta search proves them).
    fn prover(&self, table_bits: u32) -> Option<Box<dyn ValueProver + '_>> {
        let _ = table_bits;
        None
    }
    /// Where every tie below a node comes after the same number of moves (Quarto's, when the
    /// pieces run out), that number: a tie proven by the [`SearchKernel::prover`] then needs no
    /// search for its remoteness. None by default.
    fn tie_remoteness(&self, node: Node) -> Option<u16> {
        let _ = node;
        None
    }
}

/// A search for a position's value alone, as a score from the view of the player to move: -1 a
/// loss, 0 a tie, 1 a win (a proof that a position is at least or at most a tie).
pub trait ValueProver: Send {
    /// The score of `position`, exact where it lies strictly inside `(alpha, beta)`, else a
    /// bound on the side it falls: at most `alpha`, or at least `beta` (fail-soft). None if
    /// `stop`, asked now and then, said to give up.
    fn bound(
        &mut self,
        position: Position,
        alpha: i8,
        beta: i8,
        stop: &dyn Fn() -> bool,
    ) -> Option<i8>;
    /// Positions expanded so far (their moves generated).
    fn nodes(&self) -> u64;
}

/// Tiers of a game: every move leads to a position of the same tier or a lower one.
pub trait Tiers: Send + Sync {
    /// The tier of a position.
    fn tier(&self, position: Position) -> Tier;
    /// A tier's name for people (`(4,3)`: X's marks, O's marks). By default its number, for a
    /// game whose tier is one count (pieces placed, cells free).
    fn tier_name(&self, tier: Tier) -> String {
        tier.0.to_string()
    }
}

/// The tier index of a [`PositionSpace::Tiered`] game: its tiers, how they connect, and a dense
/// index of each tier's canonical positions.
pub trait TierIndex: Tiers {
    /// The tiers to solve, children before parents. Only canonical tiers are listed: a tier whose
    /// positions are all images of another tier's under a symmetry (Tic-Tac-Two's color-and-turn
    /// swap maps tier (3,4) onto (4,3)) is solved as that tier; see [`TierIndex::canonical_tier`].
    fn tiers(&self) -> Vec<Tier>;
    /// The canonical tier that [`Symmetry::canonical`] maps a tier's positions into (the tier
    /// itself for games without symmetries between tiers).
    fn canonical_tier(&self, tier: Tier) -> Tier;
    /// The canonical tiers that moves from `tier` lead to, other than `tier` itself.
    fn child_tiers(&self, tier: Tier) -> Vec<Tier>;
    /// The indices of child tier `child` that moves from `tier` can reach, where they are fewer
    /// than the whole tier (Fox and Geese: a goose's step leaves the fox to move, a capture the
    /// geese, and each side is one half of a tier). A solve under a memory limit holds only
    /// these of a child tier while it solves `tier`. The default, `None`, is the whole tier.
    fn child_window(&self, tier: Tier, child: Tier) -> Option<std::ops::Range<u64>> {
        let _ = (tier, child);
        None
    }
    /// Other variants of this game that have `tier` too, with the same positions at the same
    /// indices and the same values (nothing that decides them differs between the variants), best
    /// first: a solve may copy the tier from such a variant's database instead of solving it (Fox
    /// and Geese's tiers are the same in every variant that has them: a smaller variant has those
    /// with at most its count of geese, a larger one all). The default, none.
    fn variants_sharing(&self, tier: Tier) -> Vec<String> {
        let _ = tier;
        Vec::new()
    }
    /// Whether a move from `tier` may stay in it. The values of a tier none of whose moves stay
    /// (every placement of Nine Men's Morris leaves its tier) follow in one step from its child
    /// tiers', so a database need not store them (`analyze --prune --derive`). The default,
    /// `true`, claims nothing.
    fn moves_within(&self, tier: Tier) -> bool {
        let _ = tier;
        true
    }
    /// Where `tier`'s index puts the turns of one side after the other's, and every move from
    /// a position of the later turns leads to a position that no tier's `derivable_from` names
    /// (the earlier turns here, or in another tier): the first index of the later turns. Their
    /// values follow in one step from their children's, so a database need not store them
    /// (`db upgrade --derive`). The default, `None`, claims nothing.
    fn derivable_from(&self, tier: Tier) -> Option<u64> {
        let _ = tier;
        None
    }
    /// The number of indices of a tier.
    fn tier_size(&self, tier: Tier) -> u64;
    /// The index of a canonical position within its tier, in `0..tier_size`.
    fn tier_index(&self, position: Position) -> u64;
    /// The position at an index of a tier; `None` if the index is not a position of the game.
    /// Inverse of [`TierIndex::tier_index`] on canonical positions; an index may also name a
    /// position that is not canonical, which the solver skips.
    fn tier_position(&self, tier: Tier, index: u64) -> Option<Position>;
}

/// The symmetries of a game: maps of positions that keep values and remoteness.
pub trait Symmetry: Send + Sync {
    /// The number of symmetries, the identity included.
    fn symmetry_count(&self) -> usize;
    /// The canonical representative of the position's symmetry class: the same for every
    /// position equivalent to it, and of equal value and remoteness. By default the exchange's
    /// ([`Exchange::canonical_exchanged`]) where the symmetries include one, else the least of its
    /// images ([`Symmetry::symmetry_images`]); a game may find it faster.
    #[inline]
    fn canonical(&self, position: Position) -> Position {
        if let Some(exchange) = self.exchange() {
            return exchange.canonical_exchanged(position).0;
        }
        let mut images = Vec::with_capacity(self.symmetry_count());
        self.symmetry_images(position, &mut images);
        images.into_iter().min().unwrap_or(position)
    }
    /// Appends the position's image under each symmetry (the identity's included, duplicates
    /// allowed). An image under the exchange of players need not be a position the rules allow
    /// (it has the same value for the player to move all the same).
    fn symmetry_images(&self, position: Position, out: &mut Vec<Position>);
    /// Whether the symmetries include exchanging the players, and how (by default they do not).
    fn exchange(&self) -> Option<&dyn Exchange> {
        None
    }
}

/// The exchange of players (colors swapped, the other to move) as a symmetry. It need not keep the
/// start's reachable positions to themselves (the start with the second player to move is not
/// reached), so analysis tells the two sides of a class apart.
pub trait Exchange: Send + Sync {
    /// The position with the players exchanged.
    fn exchanged(&self, position: Position) -> Position;
    /// The canonical form and whether it is the canonical form of the position's exchange rather
    /// than of the position under the other symmetries.
    fn canonical_exchanged(&self, position: Position) -> (Position, bool);
    /// Whether a position and its exchange count as one class in an analysis's canonical counts
    /// (003's Tic-Tac-Two counts them so; its Nine Men's Morris counts board symmetries only). By
    /// default they do: the exchange is a symmetry like the others.
    fn merges_classes(&self) -> bool {
        true
    }
}

/// Undo-moves: the positions a move leads from.
pub trait UndoMoves: Send + Sync {
    /// Appends every non-primitive position with a move to `position`. Invariant (conformance
    /// test): `p` is appended iff `position` is among `children(p)` and `p` is not primitive.
    /// Parents need not be reachable.
    fn undo_moves(&self, position: Position, out: &mut Vec<Position>);
    /// Appends the parents of `position` that lie in its own tier, and perhaps others (the
    /// caller filters by tier): what the solver's loop within a tier asks for. Override it to skip
    /// parents the game knows lie elsewhere.
    fn undo_moves_in_tier(&self, position: Position, out: &mut Vec<Position>) {
        self.undo_moves(position, out);
    }
}

/// An Image AutoGUI (003 section 5.3): the theme, positions as strings, a button per move.
pub trait ImageGui: Send + Sync {
    /// The theme.
    fn theme(&self) -> crate::ImageAutoGui;
    /// The position as an AutoGUI string (see [`crate::autogui`]).
    fn autogui_position(&self, position: Position) -> String;
    /// The button that plays a move in one click.
    fn autogui_move(&self, position: Position, mv: Move) -> crate::AutoGuiMove;
    /// Whether some moves come in parts (003 chapter 6), and their parts (by default none do).
    fn multipart(&self) -> Option<&dyn MultipartMoves> {
        None
    }
}

/// Moves played in parts (003 chapter 6).
pub trait MultipartMoves: Send + Sync {
    /// The buttons that play a move in parts, in click order; empty when the move is one click.
    fn move_parts(&self, position: Position, mv: Move) -> Vec<crate::AutoGuiMove>;
}

/// What the engine, the analysis and the user interfaces ask of a game, read from its declared
/// capabilities. Implemented for every [`Game`]; games do not implement it.
pub trait GameExt: Game {
    /// The tier of a position (tier 0 for games without tiers).
    fn tier(&self, position: Position) -> Tier {
        self.space().tier(position)
    }
    /// A tier's name for people.
    fn tier_name(&self, tier: Tier) -> String {
        match self.space() {
            PositionSpace::Sparse(Some(t)) => t.tier_name(tier),
            PositionSpace::Tiered(t) => t.tier_name(tier),
            _ => tier.0.to_string(),
        }
    }
    /// The canonical tiers of a tiered game, children first; empty for other games.
    fn tiers(&self) -> Vec<Tier> {
        self.space().tier_index().map_or_else(Vec::new, |t| t.tiers())
    }
    /// See [`TierIndex::canonical_tier`]; the tier itself for games without a tier index.
    fn canonical_tier(&self, tier: Tier) -> Tier {
        self.space().tier_index().map_or(tier, |t| t.canonical_tier(tier))
    }
    /// See [`TierIndex::child_tiers`]; empty for games without a tier index.
    fn child_tiers(&self, tier: Tier) -> Vec<Tier> {
        self.space().tier_index().map_or_else(Vec::new, |t| t.child_tiers(tier))
    }
    /// See [`TierIndex::child_window`]; `None` (the whole tier) for games without a tier index.
    fn child_window(&self, tier: Tier, child: Tier) -> Option<std::ops::Range<u64>> {
        self.space().tier_index().and_then(|t| t.child_window(tier, child))
    }
    /// See [`TierIndex::variants_sharing`]; none for games without a tier index.
    fn variants_sharing(&self, tier: Tier) -> Vec<String> {
        self.space().tier_index().map_or_else(Vec::new, |t| t.variants_sharing(tier))
    }
    /// See [`TierIndex::moves_within`]; `true` for games without a tier index.
    fn moves_within(&self, tier: Tier) -> bool {
        self.space().tier_index().is_none_or(|t| t.moves_within(tier))
    }
    /// See [`TierIndex::derivable_from`]; `None` for games without a tier index.
    fn derivable_from(&self, tier: Tier) -> Option<u64> {
        self.space().tier_index().and_then(|t| t.derivable_from(tier))
    }
    /// The number of indices of a tier (of the one tier of a dense game; 0 for sparse games).
    fn tier_size(&self, tier: Tier) -> u64 {
        match self.space() {
            PositionSpace::Tiered(t) => t.tier_size(tier),
            PositionSpace::Dense { size } => size,
            PositionSpace::Sparse(_) => 0,
        }
    }
    /// The dense index of a canonical position: its tier index, or the code of a dense game.
    fn tier_index(&self, position: Position) -> u64 {
        self.space().tier_index().map_or(position.0, |t| t.tier_index(position))
    }
    /// The position at a dense index (see [`TierIndex::tier_position`]).
    fn tier_position(&self, tier: Tier, index: u64) -> Option<Position> {
        self.space().tier_index().map_or(Some(Position(index)), |t| t.tier_position(tier, index))
    }
    /// The number of symmetries (1 without).
    fn symmetry_count(&self) -> usize {
        self.symmetry().map_or(1, |s| s.symmetry_count())
    }
    /// The canonical form (the position itself without symmetries).
    fn canonical(&self, position: Position) -> Position {
        self.symmetry().map_or(position, |s| s.canonical(position))
    }
    /// Appends the position's symmetric images (the position alone without symmetries).
    fn symmetry_images(&self, position: Position, out: &mut Vec<Position>) {
        match self.symmetry() {
            Some(s) => s.symmetry_images(position, out),
            None => out.push(position),
        }
    }
    /// The position with the players exchanged, for games with that symmetry.
    fn exchange(&self, position: Position) -> Option<Position> {
        self.symmetry().and_then(|s| s.exchange()).map(|e| e.exchanged(position))
    }
    /// See [`Exchange::canonical_exchanged`]; never exchanged without that symmetry.
    fn canonical_exchanged(&self, position: Position) -> (Position, bool) {
        match self.symmetry().and_then(|s| s.exchange()) {
            Some(e) => e.canonical_exchanged(position),
            None => (self.canonical(position), false),
        }
    }
    /// Whether canonical counts merge a position with its exchange (see [`Exchange`]).
    fn exchange_merges_classes(&self) -> bool {
        self.symmetry().and_then(|s| s.exchange()).is_some_and(|e| e.merges_classes())
    }
    /// Appends the parents of a position within its tier, and perhaps others (see
    /// [`UndoMoves::undo_moves_in_tier`]).
    fn undo_moves_in_tier(&self, position: Position, out: &mut Vec<Position>) {
        if let Some(u) = self.undo() {
            u.undo_moves_in_tier(position, out);
        }
    }
    /// Whether the game has undo-moves.
    fn has_undo_moves(&self) -> bool {
        self.undo().is_some()
    }
    /// Appends the parents of a position (nothing without undo-moves).
    fn undo_moves(&self, position: Position, out: &mut Vec<Position>) {
        if let Some(u) = self.undo() {
            u.undo_moves(position, out);
        }
    }
    /// The Image AutoGUI theme, if the game has one.
    fn image_autogui(&self) -> Option<crate::ImageAutoGui> {
        self.gui().map(|g| g.theme())
    }
    /// The AutoGUI position string; empty without a theme.
    fn autogui_position(&self, position: Position) -> String {
        self.gui().map_or_else(String::new, |g| g.autogui_position(position))
    }
    /// The one-click button of a move; `None` without a theme.
    fn autogui_move(&self, position: Position, mv: Move) -> Option<crate::AutoGuiMove> {
        self.gui().map(|g| g.autogui_move(position, mv))
    }
    /// The parts of a multipart move; empty for one-click moves and games without parts.
    fn move_parts(&self, position: Position, mv: Move) -> Vec<crate::AutoGuiMove> {
        self.gui().and_then(|g| g.multipart()).map_or_else(Vec::new, |m| m.move_parts(position, mv))
    }
    /// Whether the game declares moves in parts.
    fn is_multipart(&self) -> bool {
        self.gui().is_some_and(|g| g.multipart().is_some())
    }

    /// The legal moves as a vector (empty at a primitive position).
    fn legal_moves(&self, position: Position) -> Vec<Move> {
        let mut moves = Vec::new();
        if self.primitive(position).is_none() {
            self.moves(position, &mut moves);
        }
        moves
    }

    /// The positions along a walk from the start that takes legal move `choice % moves` at each
    /// step, the start first, until the choices run out or the game ends (for tests that walk a
    /// game at random).
    fn walk(&self, choices: &[usize]) -> Vec<Position> {
        let mut p = self.start();
        let mut path = vec![p];
        for &choice in choices {
            let moves = self.legal_moves(p);
            if moves.is_empty() {
                break;
            }
            p = self.do_move(p, moves[choice % moves.len()]);
            path.push(p);
        }
        path
    }

    /// Reads a move made from `position`, accepting exactly the legal moves' notation
    /// (case-insensitive, surrounding space ignored).
    fn parse_move(&self, position: Position, text: &str) -> Result<Move, ParseError> {
        let wanted = text.trim().to_ascii_lowercase();
        let moves = self.legal_moves(position);
        moves
            .iter()
            .copied()
            .find(|&m| self.move_to_string(position, m).to_ascii_lowercase() == wanted)
            .ok_or_else(|| ParseError::IllegalMove {
                text: text.to_string(),
                legal: moves.iter().map(|&m| self.move_to_string(position, m)).collect(),
            })
    }

    /// The checked form of [`Game::do_move`]: the move must be legal here.
    fn play(&self, position: Position, mv: Move) -> Result<Position, ParseError> {
        let moves = self.legal_moves(position);
        if moves.contains(&mv) {
            Ok(self.do_move(position, mv))
        } else {
            Err(ParseError::IllegalMove {
                text: format!("{mv:?}"),
                legal: moves.iter().map(|&m| self.move_to_string(position, m)).collect(),
            })
        }
    }

    /// Name of a player.
    fn player_name(&self, player: Player) -> &'static str {
        match player {
            Player::First => self.player_names()[0],
            Player::Second => self.player_names()[1],
        }
    }
}

impl<G: Game + ?Sized> GameExt for G {}

impl<'a> PositionSpace<'a> {
    /// The tier of a position (tier 0 in a space without tiers). A loop over many positions asks
    /// the game for its space once and this for each.
    #[inline]
    pub fn tier(&self, position: Position) -> Tier {
        match self {
            PositionSpace::Sparse(Some(t)) => t.tier(position),
            PositionSpace::Tiered(t) => t.tier(position),
            _ => Tier(0),
        }
    }

    /// The tier index of a tiered space.
    pub fn tier_index(&self) -> Option<&'a dyn TierIndex> {
        match self {
            PositionSpace::Tiered(t) => Some(*t),
            _ => None,
        }
    }
}

impl fmt::Debug for dyn Game + '_ {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}({})", self.id(), self.variant())
    }
}

/// A game played from another start position: the same rules, variant and capabilities, with
/// `start` as the start. Used to solve a position that the real start does not reach.
#[derive(Debug)]
pub struct StartingAt<'a, G: Game + ?Sized> {
    /// The game.
    pub game: &'a G,
    /// The start to use instead.
    pub start: Position,
}

impl<G: Game + ?Sized> Game for StartingAt<'_, G> {
    fn start(&self) -> Position {
        self.start
    }
    crate::forward_game!(game: identity, rules, text, children, capabilities);
}

/// Inside the `impl Game` block of a wrapper around a game (`self.$field`), forwards the named
/// groups of `Game` methods to it: `identity` (`id`, `name`, `variant`, `size_class`), `start`,
/// `rules` (`to_move`, `primitive`, `moves`, `do_move`), `children`, `text` (the text forms,
/// `board_text`, `player_names`) and `capabilities` (`space` and the six capabilities). What the
/// wrapper changes, it writes itself.
#[macro_export]
macro_rules! forward_game {
    ($field:ident: $($group:ident),* $(,)?) => { $( $crate::forward_game!(@$group $field); )* };
    (@identity $f:ident) => {
        $crate::forward_game!(@to $f: id() -> &'static str, name() -> &'static str);
        $crate::forward_game!(@to $f: variant() -> String, size_class() -> $crate::SizeClass);
    };
    (@start $f:ident) => {
        $crate::forward_game!(@to $f: start() -> $crate::Position);
    };
    (@rules $f:ident) => {
        $crate::forward_game!(@to $f: to_move(p: $crate::Position) -> $crate::Player);
        $crate::forward_game!(@to $f: primitive(p: $crate::Position) -> Option<$crate::Value>);
        $crate::forward_game!(@to $f: moves(p: $crate::Position, out: &mut Vec<$crate::Move>) -> ());
        $crate::forward_game!(@to $f: do_move(p: $crate::Position, mv: $crate::Move) -> $crate::Position);
    };
    (@children $f:ident) => {
        $crate::forward_game!(@to $f: children(p: $crate::Position, out: &mut Vec<$crate::Position>) -> ());
    };
    (@text $f:ident) => {
        $crate::forward_game!(@to $f: position_to_string(p: $crate::Position) -> String);
        $crate::forward_game!(@to $f: parse_position(text: &str) -> Result<$crate::Position, $crate::ParseError>);
        $crate::forward_game!(@to $f: move_to_string(p: $crate::Position, mv: $crate::Move) -> String);
        $crate::forward_game!(@to $f: move_syntax() -> String, player_names() -> [&'static str; 2]);
        $crate::forward_game!(@to $f: board_text(p: $crate::Position) -> String);
    };
    (@capabilities $f:ident) => {
        $crate::forward_game!(@to $f: space() -> $crate::PositionSpace<'_>);
        $crate::forward_game!(@to $f: symmetry() -> Option<&dyn $crate::Symmetry>);
        $crate::forward_game!(@to $f: undo() -> Option<&dyn $crate::UndoMoves>);
        $crate::forward_game!(@to $f: gui() -> Option<&dyn $crate::ImageGui>);
        $crate::forward_game!(@to $f: kernel() -> Option<&dyn $crate::TierKernel>);
        $crate::forward_game!(@to $f: search_kernel() -> Option<&dyn $crate::SearchKernel>);
    };
    // Each method named with its parameters and result, forwarded.
    (@to $f:ident: $($name:ident($($arg:ident: $ty:ty),*) -> $ret:ty),+) => {
        $( fn $name(&self, $($arg: $ty),*) -> $ret { self.$f.$name($($arg),*) } )+
    };
}

/// Opts a game into capabilities, inside its `impl Game` block: each one named gets the method
/// that returns the game itself, which must then implement that capability's trait.
/// `tiers` is `space()` as [`PositionSpace::Sparse`] with the game's [`Tiers`]; `tier_index` is
/// `space()` as [`PositionSpace::Tiered`]; `symmetry`, `undo` and `gui` are the methods of those
/// names. A game whose capability depends on the variant writes the method itself.
///
/// ```ignore
/// impl Game for TicTacToe {
///     // ... the required core ...
///     perfectplay_core::capabilities!(tiers, symmetry, undo, gui);
/// }
/// ```
#[macro_export]
macro_rules! capabilities {
    ($($capability:ident),* $(,)?) => { $( $crate::capabilities!(@one $capability); )* };
    (@one tiers) => {
        fn space(&self) -> $crate::PositionSpace<'_> {
            $crate::PositionSpace::Sparse(Some(self))
        }
    };
    (@one tier_index) => {
        fn space(&self) -> $crate::PositionSpace<'_> {
            $crate::PositionSpace::Tiered(self)
        }
    };
    (@one symmetry) => { $crate::capabilities!(@itself symmetry, Symmetry); };
    (@one undo) => { $crate::capabilities!(@itself undo, UndoMoves); };
    (@one gui) => { $crate::capabilities!(@itself gui, ImageGui); };
    (@one kernel) => { $crate::capabilities!(@itself kernel, TierKernel); };
    (@one search_kernel) => { $crate::capabilities!(@itself search_kernel, SearchKernel); };
    // A capability's method, answering the game itself.
    (@itself $name:ident, $capability:ident) => {
        fn $name(&self) -> Option<&dyn $crate::$capability> {
            Some(self)
        }
    };
}
