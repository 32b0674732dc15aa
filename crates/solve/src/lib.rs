//! Solving: the retrograde engine (loopy and loop-free, tier by tier, parallel), forward discovery
//! of reachable positions, and analysis (value-remoteness counts).
//!
//! **Architecture Invariant:** no file I/O. Results leave through [`ResultSink`]; the `db` crate
//! implements it for disk, [`Solution`] holds them in memory.

pub mod analysis;
mod counts;
pub mod discover;
mod driver;
mod error;
mod hint;
mod memory;
mod packed;
mod plan;
pub mod progress;
pub mod proof;
mod queues;
mod ranks;
mod retrograde;
mod search;
mod sink;
mod solved;
pub mod space;
pub mod tiered;

pub use analysis::{analyze, analyze_counting};
pub use counts::{Analysis, CountRow};
pub use driver::{shared_over_ranks, solve, SolveOptions};
pub use error::{SinkError, SolveError};
pub use packed::{BlockCache, PackedCodes};
pub use plan::{plan, SolvePlan};
pub use progress::{NoProgress, Progress};
pub use proof::{Bounds, Combined, SplitProof};
pub use ranks::{Alone, Ranks, Threads};
pub use search::{AlphaBeta, Search, TABLE_BITS};
pub use sink::{MemoryParts, PartStore, ResultSink};
pub use solved::{Solution, SolvedTier, TierValues};
pub use space::{SortedPositions, TierSpace};
pub use tiered::{
    add_tally, analyze_tiered, analyze_tiered_from, count_classes_by_mover,
    count_positions_by_mover, count_reached, count_tier, marks_words, reach_tiered,
    reach_tiered_classes, reach_tiered_one_pass, Reached, Tally, TierReport,
};
