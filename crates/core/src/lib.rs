//! perfectplay's core: values, remoteness and their order, the `Game` trait family and
//! combinatorial ranking.
//!
//! **Architecture Invariant:** no I/O, no threads, no serde. Everything here is pure data and
//! arithmetic that every other crate may depend on.

pub mod autogui;
pub mod game;
pub mod ranking;
pub mod value;

pub use autogui::{AutoGuiMove, Entity, ImageAutoGui};
pub use game::{Game, Move, ParseError, Player, Position, PositionSpace, StartingAt, Tier};
pub use ranking::{RankError, Rearranger};
pub use value::{Remoteness, Value, ValueRemoteness};
