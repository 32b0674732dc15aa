//! perfectplay's core: values, remoteness and their order, the `Game` trait family and
//! combinatorial ranking, and sets of points up to symmetry.
//!
//! **Architecture Invariant:** no I/O, no threads, no serde. Everything here is pure data and
//! arithmetic that every other crate may depend on.

pub mod autogui;
pub mod classes;
pub mod codec;
pub mod game;
pub mod kernel;
pub mod random;
pub mod ranking;
pub mod value;

pub use autogui::{AutoGuiMove, Entity, ImageAutoGui};
pub use classes::{AddedPairs, Beside, Leading, LeastCache, Neighbours, SetClasses};
pub use codec::Field;
pub use game::{
    children_located, indices_in_tier, Exchange, Game, GameExt, ImageGui, InTier, KernelCache,
    Locations, Move, MultipartMoves, Node, ParseError, Player, Position, PositionSpace,
    RunLocations, SearchKernel, SidedLocations, SizeClass, StartingAt, Symmetry, Tier, TierIndex,
    TierKernel, Tiers, UndoMoves, ValueProver,
};
pub use random::xorshift;
pub use ranking::{RankError, Rearranger};
pub use value::{Bound, Remoteness, Value, ValueRemoteness};
