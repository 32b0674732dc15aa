//! How solved tiers leave the engine: the [`ResultSink`] a database or memory implements.

use perfectplay_core::Tier;

use crate::{SinkError, SolvedTier};

/// Receives each tier as soon as it is solved (the database writes it; memory keeps it).
pub trait ResultSink {
    /// Called once per tier, lowest tier first.
    fn tier_solved(&mut self, tier: &SolvedTier) -> Result<(), SinkError>;

    /// A tier that an earlier, interrupted solve finished and kept, read back whole and checked;
    /// `None` if there is none (the tier is solved). The default keeps nothing.
    fn resume(&mut self, _tier: Tier) -> Result<Option<SolvedTier>, SinkError> {
        Ok(None)
    }

    /// Whether solved tiers are kept by the sink, so that the solve may drop them from memory
    /// once no tier still to solve needs them (with a memory limit only).
    fn keeps_tiers(&self) -> bool {
        false
    }

    /// Whether the sink holds the tier finished by an earlier, interrupted solve, checked cheaply
    /// (its values are read only if a later tier needs them, by [`ResultSink::reload`]). Used by
    /// solves under a memory limit; the default holds nothing.
    fn kept(&mut self, _tier: Tier) -> Result<bool, SinkError> {
        Ok(false)
    }

    /// A tier the sink holds, read back whole and checked, for a tier that needs it as a child
    /// after it was dropped from memory. The default holds nothing.
    fn reload(&mut self, _tier: Tier) -> Result<Option<SolvedTier>, SinkError> {
        Ok(None)
    }
}
