//! What a game's module uses of the core and of the kit, in one import:
//! `use crate::prelude::*;`.

pub use perfectplay_core::autogui::{autogui_position, grid_centers};
pub use perfectplay_core::{
    AutoGuiMove, Entity, Exchange, Field, Game, ImageAutoGui, ImageGui, KernelCache, LeastCache,
    Move, MultipartMoves, ParseError, Player, Position, PositionSpace, Rearranger, SetClasses,
    SizeClass, Symmetry, Tier, TierIndex, TierKernel, Tiers, UndoMoves, Value,
};

pub use crate::board::{self, Board, InARow, Placements, Stacks, Symmetries};
