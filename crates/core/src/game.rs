//! The `Game` trait family: what a game must say about itself for the engine, the analysis and the
//! user interfaces to work with it.
//!
//! A game implements a handful of required methods (start, primitive, moves, do-move and the text
//! forms); everything else is provided and may be overridden for speed (`children`) or for what the
//! game knows (`canonical` for symmetries, `tier` for layering, `undo_moves` for retrograde solving).
//! Untrusted text is turned into positions and moves in exactly one place each, `parse_position`
//! and `parse_move`, which check what they return.

use std::fmt;

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
    /// The opponent.
    pub fn other(self) -> Player {
        match self {
            Player::First => Player::Second,
            Player::Second => Player::First,
        }
    }
}

/// The shape of a game's position space, which decides how the engine stores it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PositionSpace {
    /// Positions are the indices `0..size` of a perfect hash, all in tier 0; the engine solves
    /// them in flat arrays indexed by position (unreachable indices are solved too, harmlessly).
    Dense {
        /// The number of indices.
        size: u64,
    },
    /// Positions are sparse codes in a huge space; the engine discovers the reachable ones from the
    /// start, tier by tier, and keeps each tier as a sorted array of the codes it reached.
    Sparse,
    /// Positions are grouped in tiers ([`Game::tiers`]), and each tier's canonical positions have
    /// a dense index `0..tier_size` of the game's own ([`Game::tier_index`],
    /// [`Game::tier_position`]): the tier solver solves one tier at a time in flat arrays, with
    /// its child tiers' values at hand, and needs no discovery.
    Tiered,
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

/// A two-player, perfect-information game, one variant of it.
pub trait Game: Send + Sync {
    /// Short identifier used on the command line and in URLs (`tictactoe`, `konane`).
    fn id(&self) -> &'static str;
    /// Human-readable name.
    fn name(&self) -> &'static str;
    /// This variant's identifier.
    fn variant(&self) -> String;

    /// The start position.
    fn start(&self) -> Position;
    /// `Some(value)` if the game is over at `position`, from the view of the player to move.
    fn primitive(&self, position: Position) -> Option<Value>;
    /// Appends the legal moves at a non-primitive position to `out`.
    fn moves(&self, position: Position, out: &mut Vec<Move>);
    /// The position after a legal move. Unchecked: see [`Game::play`] for the checked form.
    fn do_move(&self, position: Position, mv: Move) -> Position;
    /// The player to move.
    fn to_move(&self, position: Position) -> Player;

    /// The position in its one-line text form, which [`Game::parse_position`] reads back.
    fn position_to_string(&self, position: Position) -> String;
    /// Reads a position from its text form, checking that it is legal.
    fn parse_position(&self, text: &str) -> Result<Position, ParseError>;
    /// A move in the game's notation.
    fn move_to_string(&self, position: Position, mv: Move) -> String;
    /// The form of a move, for messages (`[a-c][1-3]`).
    fn move_syntax(&self) -> String;

    /// The shape of the position space.
    fn space(&self) -> PositionSpace {
        PositionSpace::Sparse
    }

    /// The tier of a position. Invariant: every move leads to a tier no higher than this one.
    fn tier(&self, _position: Position) -> Tier {
        Tier(0)
    }

    /// The tiers to solve, children before parents ([`PositionSpace::Tiered`] games; others return
    /// nothing). Only canonical tiers are listed: a tier whose positions are all images of
    /// another tier's under a symmetry (Tic-Tac-Two's color-and-turn swap maps tier (3,4) onto
    /// (4,3)) is solved as that tier; see [`Game::canonical_tier`].
    fn tiers(&self) -> Vec<Tier> {
        Vec::new()
    }

    /// The canonical tier that [`Game::canonical`] maps a tier's positions into (the tier itself
    /// for games without symmetries between tiers).
    fn canonical_tier(&self, tier: Tier) -> Tier {
        tier
    }

    /// The canonical tiers that moves from `tier` lead to, other than `tier` itself.
    fn child_tiers(&self, _tier: Tier) -> Vec<Tier> {
        Vec::new()
    }

    /// The number of indices of a tier of a [`PositionSpace::Tiered`] game (its dense index).
    fn tier_size(&self, _tier: Tier) -> u64 {
        0
    }

    /// The index of a canonical position within its tier: `0..tier_size` for
    /// [`PositionSpace::Tiered`] games, the code itself for [`PositionSpace::Dense`] ones.
    fn tier_index(&self, position: Position) -> u64 {
        position.0
    }

    /// The position at an index of a tier; `None` if the index is not a position of the game.
    /// Inverse of [`Game::tier_index`] on canonical positions; an index may also name a position
    /// that is not canonical, which the solver skips.
    fn tier_position(&self, _tier: Tier, index: u64) -> Option<Position> {
        Some(Position(index))
    }

    /// A tier's name for people (`(4,3)`: X's marks, O's marks).
    fn tier_name(&self, tier: Tier) -> String {
        tier.0.to_string()
    }

    /// The number of symmetries [`Game::canonical`] reduces by (1 if it is the identity).
    fn symmetry_count(&self) -> usize {
        1
    }

    /// The canonical representative of the position's symmetry class: the same for every
    /// position equivalent to it under the game's symmetries, and of equal value and remoteness.
    fn canonical(&self, position: Position) -> Position {
        position
    }

    /// Appends the position's image under each of the game's symmetries (the identity's included,
    /// duplicates allowed). An image under [`Game::exchange`] need not be a position the rules
    /// allow (it has the same value for the player to move all the same). Games that do not list them append nothing; analysis then counts
    /// symmetric positions by a second search instead of by their images.
    fn symmetry_images(&self, _position: Position, _out: &mut Vec<Position>) {}

    /// For games whose symmetries include exchanging the players (colors swapped and the other
    /// to move): the position with the players exchanged. Such a symmetry need not keep the
    /// start's reachable positions to themselves (the start with the second player to move is
    /// not reached), so analysis tells the two sides of a class apart with
    /// [`Game::canonical_exchanged`]. `None`: the game has no such symmetry.
    fn exchange(&self, _position: Position) -> Option<Position> {
        None
    }

    /// The canonical form and whether it is the canonical form of the position's exchange
    /// ([`Game::exchange`]) rather than of the position under the other symmetries.
    fn canonical_exchanged(&self, position: Position) -> (Position, bool) {
        (self.canonical(position), false)
    }

    /// Whether [`Game::undo_moves`] is implemented.
    fn has_undo_moves(&self) -> bool {
        false
    }

    /// Appends every non-primitive position with a move to `position`. Invariant (property-tested
    /// per game): `p` is appended iff `position` is among `children(p)` and `p` is not primitive.
    /// Parents need not be reachable. Games without it return nothing and say so in
    /// [`Game::has_undo_moves`]; the engine then builds parent lists from forward moves.
    fn undo_moves(&self, _position: Position, _out: &mut Vec<Position>) {}

    /// Appends the position after every legal move. Override for speed.
    fn children(&self, position: Position, out: &mut Vec<Position>) {
        let mut moves = Vec::new();
        self.moves(position, &mut moves);
        out.extend(moves.into_iter().map(|m| self.do_move(position, m)));
    }

    /// The legal moves as a vector (empty at a primitive position).
    fn legal_moves(&self, position: Position) -> Vec<Move> {
        let mut moves = Vec::new();
        if self.primitive(position).is_none() {
            self.moves(position, &mut moves);
        }
        moves
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

    /// The board drawn in text over several lines, for the terminal.
    fn board_text(&self, position: Position) -> String {
        self.position_to_string(position)
    }

    /// The Image AutoGUI theme (003 section 5.3), if the game has one.
    fn image_autogui(&self) -> Option<crate::ImageAutoGui> {
        None
    }

    /// The position as an AutoGUI string (see [`crate::autogui`]); empty without a theme.
    fn autogui_position(&self, _position: Position) -> String {
        String::new()
    }

    /// The button that plays a move in one click; `None` without a theme.
    fn autogui_move(&self, _position: Position, _mv: Move) -> Option<crate::AutoGuiMove> {
        None
    }

    /// The buttons that play a move in parts, in click order (003 chapter 6); empty when the move
    /// is one click ([`Game::autogui_move`]).
    fn move_parts(&self, _position: Position, _mv: Move) -> Vec<crate::AutoGuiMove> {
        Vec::new()
    }

    /// The names of the two players, first mover first (`["x", "o"]`).
    fn player_names(&self) -> [&'static str; 2] {
        ["first", "second"]
    }

    /// Name of a player.
    fn player_name(&self, player: Player) -> &'static str {
        match player {
            Player::First => self.player_names()[0],
            Player::Second => self.player_names()[1],
        }
    }
}

impl fmt::Debug for dyn Game + '_ {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}({})", self.id(), self.variant())
    }
}

/// A game played from another start position: the same rules, variant and symmetries, with
/// `start` as the start. Used to solve a position that the real start does not reach.
#[derive(Debug)]
pub struct StartingAt<'a, G: Game + ?Sized> {
    /// The game.
    pub game: &'a G,
    /// The start to use instead.
    pub start: Position,
}

impl<G: Game + ?Sized> Game for StartingAt<'_, G> {
    fn id(&self) -> &'static str {
        self.game.id()
    }
    fn name(&self) -> &'static str {
        self.game.name()
    }
    fn variant(&self) -> String {
        self.game.variant()
    }
    fn start(&self) -> Position {
        self.start
    }
    fn primitive(&self, p: Position) -> Option<Value> {
        self.game.primitive(p)
    }
    fn moves(&self, p: Position, out: &mut Vec<Move>) {
        self.game.moves(p, out)
    }
    fn do_move(&self, p: Position, mv: Move) -> Position {
        self.game.do_move(p, mv)
    }
    fn to_move(&self, p: Position) -> Player {
        self.game.to_move(p)
    }
    fn position_to_string(&self, p: Position) -> String {
        self.game.position_to_string(p)
    }
    fn parse_position(&self, text: &str) -> Result<Position, ParseError> {
        self.game.parse_position(text)
    }
    fn move_to_string(&self, p: Position, mv: Move) -> String {
        self.game.move_to_string(p, mv)
    }
    fn move_syntax(&self) -> String {
        self.game.move_syntax()
    }
    fn space(&self) -> PositionSpace {
        self.game.space()
    }
    fn tier(&self, p: Position) -> Tier {
        self.game.tier(p)
    }
    fn tiers(&self) -> Vec<Tier> {
        self.game.tiers()
    }
    fn canonical_tier(&self, t: Tier) -> Tier {
        self.game.canonical_tier(t)
    }
    fn child_tiers(&self, t: Tier) -> Vec<Tier> {
        self.game.child_tiers(t)
    }
    fn tier_size(&self, t: Tier) -> u64 {
        self.game.tier_size(t)
    }
    fn tier_index(&self, p: Position) -> u64 {
        self.game.tier_index(p)
    }
    fn tier_position(&self, t: Tier, i: u64) -> Option<Position> {
        self.game.tier_position(t, i)
    }
    fn tier_name(&self, t: Tier) -> String {
        self.game.tier_name(t)
    }
    fn symmetry_images(&self, p: Position, out: &mut Vec<Position>) {
        self.game.symmetry_images(p, out)
    }
    fn exchange(&self, p: Position) -> Option<Position> {
        self.game.exchange(p)
    }
    fn canonical_exchanged(&self, p: Position) -> (Position, bool) {
        self.game.canonical_exchanged(p)
    }
    fn symmetry_count(&self) -> usize {
        self.game.symmetry_count()
    }
    fn canonical(&self, p: Position) -> Position {
        self.game.canonical(p)
    }
    fn has_undo_moves(&self) -> bool {
        self.game.has_undo_moves()
    }
    fn undo_moves(&self, p: Position, out: &mut Vec<Position>) {
        self.game.undo_moves(p, out)
    }
    fn children(&self, p: Position, out: &mut Vec<Position>) {
        self.game.children(p, out)
    }
    fn board_text(&self, p: Position) -> String {
        self.game.board_text(p)
    }
    fn player_names(&self) -> [&'static str; 2] {
        self.game.player_names()
    }
}
