//! Why a solve fails.

use perfectplay_core::Position;

/// Why a solve failed. Each is a bug in a game's rules or a limit of the engine, never bad input.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SolveError {
    /// A position that is not primitive has no moves.
    #[error("position {position:?} is not primitive but has no moves")]
    NoMoves {
        /// The position.
        position: Position,
    },
    /// A child in a lower tier was not solved (the game's tiers or moves are inconsistent).
    #[error("child {position:?} was not found among solved positions")]
    ChildNotSolved {
        /// The child.
        position: Position,
    },
    /// More than 32,767 distinct children.
    #[error("position {position:?} has more children than the engine's counters hold")]
    TooManyChildren {
        /// The position.
        position: Position,
    },
    /// A dense game used tiers (a dense space is one tier; tiered games say
    /// [`PositionSpace::Tiered`](perfectplay_core::PositionSpace::Tiered)).
    #[error("a dense position space must be a single tier")]
    DenseWithTiers,
    /// A tiered game's index numbers canonical positions only, so it cannot be solved without
    /// symmetry reduction.
    #[error("{game} numbers its canonical positions only: it is solved with symmetries")]
    NeedsSymmetry {
        /// The game.
        game: String,
    },
    /// The game's tier index or tiers disagree with its moves.
    #[error("inconsistent tiers: {what}")]
    Inconsistent {
        /// What disagrees.
        what: String,
    },
    /// A search or a solve was told to stop before it ended.
    #[error("stopped before the end, as asked")]
    Stopped,
    /// The engine cannot do this for this game yet.
    #[error("not supported: {what}")]
    Unsupported {
        /// What was asked.
        what: String,
    },
    /// Solving a tier would need more memory than the limit allows.
    #[error(
        "tier {tier} needs about {needed} MiB with its child tiers, over the {limit} MiB limit",
        needed = needed >> 20, limit = limit >> 20
    )]
    OverMemoryLimit {
        /// The tier's name.
        tier: String,
        /// Bytes the tier needs.
        needed: u64,
        /// The limit in bytes.
        limit: u64,
    },
    /// The result sink refused a tier: its own error, as it gave it (the database's `DbError`
    /// for the database crate's sinks), or what the driver found wrong with what it read back.
    #[error("writing results failed: {0}")]
    Sink(SinkError),
}

/// A [`ResultSink`](crate::ResultSink)'s error, typed by the sink (`downcast_ref` finds it).
pub type SinkError = Box<dyn std::error::Error + Send + Sync + 'static>;
