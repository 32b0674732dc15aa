//! The retrograde engine: solves one tier whose child tiers are already solved (003 Algorithms 2
//! and 3). Loopy and loop-free alike:
//!
//! 1. **Initialise** (parallel): a primitive is decided at remoteness 0; otherwise the distinct
//!    canonical children are split into those outside the tier, whose solved values fold into the
//!    best result so far, and those inside it, which are counted. A position with no children inside
//!    the tier is decided at once (a loop-free tier ends here).
//! 2. **Win/lose by remoteness**: the frontier queue of level `r` holds the positions decided with
//!    remoteness `r`. A lose at `r` makes every undecided parent a win at `r + 1`; a win at `r`
//!    takes one off each parent's counter of undecided children, and a parent whose counter reaches
//!    zero loses at `max(r + 1, its worst external loss)`. Levels are processed in increasing
//!    order, so a win is claimed at its smallest remoteness and a loss at its largest.
//! 3. **Ties by remoteness**, the same way among what is left: a tie at `r` makes every undecided
//!    parent a tie at `r + 1`.
//! 4. What remains undecided is a **draw**.
//!
//! Each position holds one cell during the solve: **one byte** where the game allows (Malom's
//! trick), else two. A cell with its top bit set is decided and holds a code into the solve's
//! dictionary of value-remoteness pairs; otherwise it holds the count of undecided children. One
//! byte holds 127 codes and counters up to 127. A tier solved whole, by one rank, whose dictionary
//! nears 128 codes has its cells widened to two bytes in place between two levels where the memory
//! limit leaves room for both copies; otherwise a solve that needs more starts again with two-byte
//! cells. The decided cells
//! become the tier's stored codes in place, so the solve's peak is about
//! one byte per position plus the frontier queues (4 bytes per queued position; 8 in a tier of
//! more than 2^32 indices).
//!
//! A tier with children in lower tiers also holds, per position, the best result from outside the
//! tier (2 bytes); a dense single-tier game holds none. Counters count distinct canonical children,
//! and a decided child's parents are deduplicated by canonical form, so symmetric positions are
//! counted once on both sides. Parent updates first read the cell without a lock and use an atomic
//! read-modify-write only where something changes; reads of many parents overlap in memory.

use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU64, AtomicU8, Ordering::Relaxed};
use std::sync::Mutex;

use perfectplay_core::{
    Game, GameExt, KernelCache, Position, Remoteness, Tier, TierKernel, Value, ValueRemoteness,
};
use rayon::prelude::*;

use crate::progress::Progress;
use crate::queues::queue_entry_bytes;
use crate::ranks::Ranks;
use crate::sink::PartStore;
use crate::space::TierSpace;
use crate::{BlockCache, SolveError, TierValues};

mod cells;
mod children;
mod initialise;
mod kept;
mod parts;
mod phases;
mod runs;
mod seeded;
mod shared;
mod spare;
use cells::{Cells, Codes};
use children::{ChildTier, ChildTiers};
use parts::{PartCells, Parts, Plan, Queues};
use seeded::Seeding;
pub(crate) use spare::Spare;

/// Set in a (widened) cell when the position is decided.
const DECIDED: u16 = 1 << 15;
/// A position's best result from outside the tier is stored with its bits inverted, so that
/// zeros, memory the allocator hands over untouched ([`cells::zeroed`]), hold none.
const NO_EXTERNAL: u16 = 0;

/// A best result from outside the tier as stored.
#[inline]
fn external_bits(vr: ValueRemoteness) -> u16 {
    !vr.to_bits()
}

/// The best result from outside the tier stored as `bits`, if any.
#[inline]
fn external_of(bits: u16) -> Option<ValueRemoteness> {
    ValueRemoteness::from_bits(!bits)
}

const CHUNK: usize = 1 << 12;
/// Chunks whose sources one task queues after the initialisation.
const SOURCE_CHUNKS: usize = 1 << 6;
/// Entries of a level propagated at once: what they decide is queued before the next slice.
const SLICE: usize = 1 << 20;
// Each chunk's care bits are whole words of the tier's bitmap.
const _: () = assert!(CHUNK.is_multiple_of(64));

/// What initialising one chunk of a tier gives besides the cells, the external results and its
/// words of the bitmap of indices that name canonical positions ([`crate::SolvedTier::care`],
/// written in place): its edges inside the tier (the child's index, the parent's). (The positions
/// it decided, and the candidates from outside the tier, undecided positions whose best external
/// result is a win or tie, are read back from the cells and the external results, a batch at a
/// time, and only where something is left to propagate: no list of them is held beside the
/// queues they go into.)
type ChunkStart = Vec<(u64, u64)>;

/// A solved tier's values, with its bitmap of canonical indices where it is kept.
pub(crate) type Solved = (TierValues, Option<Vec<u64>>);

/// What initialising a rank's parts gives: the positions left undecided, those decided (queued
/// as sources), the edges inside the tier (games without undo-moves), and where the tier was
/// initialised from its decided children ([`seeded`]), the positions that initialised.
type Initialised = (u64, u64, Vec<(u64, u64)>, Option<u64>);

/// The dictionary code of a draw, which is also what undecided cells become.
const DRAW_CODE: u16 = 0;

/// Everything the engine needs to solve one tier.
pub(crate) struct TierProblem<'a, G: Game + ?Sized> {
    pub game: &'a G,
    pub tier: Tier,
    pub space: &'a TierSpace,
    /// Whether positions (and children, and parents) are reduced to canonical form.
    pub canonicalize: bool,
    /// Whether the game is a single dense tier (no child is ever outside it).
    pub one_tier: bool,
    /// The solved child tiers: each with its positions, the index its values begin at (a solve
    /// under a memory limit may hold a window) and its values; read by index where the kernel
    /// locates children, else by code, many at once so that their lookups overlap.
    pub child_values: &'a [(Tier, &'a TierSpace, u64, &'a TierValues)],
    /// The game's fused hot paths, used where positions are canonical in a dense tier index.
    pub kernel: Option<&'a dyn TierKernel>,
    /// Start with two-byte cells (the child tiers already hold nearly as many distinct values as
    /// one-byte cells can: a one-byte attempt would most likely be abandoned part way).
    pub start_wide: bool,
    /// Bytes the tier's cells, best results from outside and queues may hold: a tier that needs
    /// more is solved in parts, those that do not fit kept in the store `solve` is given.
    pub budget: Option<u64>,
    /// The bytes by which one-byte cells may grow to be widened to two bytes in place between two
    /// levels, where their dictionary nears its 128 codes: the tier is not solved again. A
    /// widening holds both copies for a moment, so it takes twice the cells' bytes; none is done
    /// in a tier solved in parts or by several ranks. `u64::MAX` with no memory limit, else what
    /// the limit leaves beside the held tiers and [`bytes_needed`].
    pub widen_room: u64,
    /// Initialise the tier from its decided children ([`crate::SolveOptions::seeded`]); `None`:
    /// where they are few.
    pub seeded: Option<bool>,
    /// The tier's marks of positions the start reaches (two bits an index,
    /// [`crate::SolveOptions::reached`]): the others are placeholders. `None`: every position.
    pub reached: Option<&'a [AtomicU64]>,
    /// Where a tier solved whole by one rank takes its best results from outside the tier and
    /// leaves them for the next ([`Spare`]); `None`: each tier takes new ones.
    pub spare: Option<&'a Spare>,
}

/// An estimate of the bytes solving a tier takes beyond the solved tiers already held: a cell per
/// position (one byte, two if the game needs them), the best external result (two bytes) where
/// children can lie outside the tier and inside it, frontier queues (4 bytes per queued position,
/// 8 in a tier of more than 2^32 indices; at worst every canonical position, counted as a quarter
/// of the indices), the tier's stored values (one byte) and, in a dense tier of a game with
/// symmetries, the bitmap of the indices that name canonical positions (a bit).
pub(crate) fn bytes_needed<G: Game + ?Sized>(game: &G, tier: Tier, space: &TierSpace) -> u64 {
    let n = space.len();
    let dense = matches!(space, TierSpace::Dense { .. });
    let external = if holds_external(game, tier, dense) { 2 * n } else { 0 };
    let queues = n / 4 * queue_entry_bytes(n as usize);
    let care = if dense && game.symmetry_count() > 1 { n.div_ceil(64) * 8 } else { 0 };
    n + external + queues + n + care
}

/// Whether a tier of a tiered solve holds best results from outside it: where a child can lie
/// outside it and one inside it (not in a dense tier without child tiers, nor in a tier no move
/// stays in, whose positions its children outside decide at once).
fn holds_external<G: Game + ?Sized>(game: &G, tier: Tier, dense: bool) -> bool {
    !(dense && game.child_tiers(tier).is_empty()) && game.moves_within(tier)
}

/// The bytes a tier's parts may hold under `limit` beside `held` (the child tiers): what is left
/// once the bitmap of canonical indices and the tier's values at the end (a byte an index) are set
/// aside; `None` where that leaves no room for parts of a few chunks.
pub(crate) fn parts_budget<G: Game + ?Sized>(
    game: &G,
    space: &TierSpace,
    limit: u64,
    held: u64,
) -> Option<u64> {
    let n = space.len();
    let care = if game.symmetry_count() > 1 { n.div_ceil(64) * 8 } else { 0 };
    let budget = limit.checked_sub(held + care + n / 2)?;
    (budget >= 64 * CHUNK as u64).then_some(budget)
}

/// Parent lists within the tier, built from forward moves for games without undo-moves.
struct ReverseEdges {
    offsets: Vec<u64>,
    parents: Vec<u64>,
}

/// What a tier's solve holds besides its cells.
struct Layout {
    dense: bool,
    /// The bitmap of the indices that name canonical positions (a dense, canonicalized tier).
    keeps_care: bool,
    /// The best result from outside the tier: not in a single dense tier, else where
    /// [`holds_external`].
    has_external: bool,
}

/// Why an attempt stopped: a real error, or one-byte cells that turned out too small (and why).
enum Fail {
    Narrow(&'static str),
    Error(SolveError),
}

/// One-byte cells count at most 127 children of a position inside its tier.
const NARROW_CHILDREN: &str = "a position has more than 127 moves inside the tier";
/// One-byte cells hold at most 128 codes.
const NARROW_VALUES: &str = "the tier has more than 128 values";
/// Another rank sharing the tier found its one-byte cells too small.
const NARROW_ELSEWHERE: &str = "another rank's one-byte cells were too small";

/// A step's outcome on every rank sharing the tier, agreed before any goes on: a rank that failed
/// returns its failure; the others stop too, or all start again with two-byte cells where that
/// was the failure.
fn agree<T>(ranks: &dyn Ranks, outcome: Result<T, Fail>) -> Result<T, Fail> {
    if ranks.size() == 1 {
        return outcome;
    }
    let mine = match &outcome {
        Ok(_) => 0,
        Err(Fail::Narrow(_)) => 1,
        Err(Fail::Error(_)) => 2,
    };
    match (ranks.max(mine), outcome) {
        (0, outcome) | (2, outcome @ Err(Fail::Error(_))) | (1, outcome @ Err(_)) => outcome,
        (1, Ok(_)) => Err(Fail::Narrow(NARROW_ELSEWHERE)),
        _ => Err(Fail::Error(SolveError::Inconsistent {
            what: "another rank sharing the tier failed".into(),
        })),
    }
}

impl From<SolveError> for Fail {
    fn from(e: SolveError) -> Fail {
        Fail::Error(e)
    }
}

impl<G: Game + ?Sized> TierProblem<'_, G> {
    /// The position at an index of the tier (`None`: the game's index names no position there).
    #[inline]
    fn position_at(&self, i: u64) -> Option<Position> {
        match self.space {
            TierSpace::Dense { .. } => self.game.tier_position(self.tier, i),
            TierSpace::Sorted(s) => Some(Position(s.key(i as usize))),
        }
    }

    /// The index of a (canonical) position of the tier.
    #[inline]
    fn index(&self, p: Position) -> Option<u64> {
        self.space.index_in(self.game, p)
    }

    /// Whether the start does not reach index `index` ([`TierProblem::reached`]).
    #[inline]
    fn unreached(&self, index: u64) -> bool {
        self.reached.is_some_and(|marks| !crate::tiered::is_marked(marks, index))
    }

    /// Whether the position at `index` of the tier is the canonical form of its class.
    #[inline]
    fn is_canonical(&self, p: Position, index: u64, cache: &mut KernelCache) -> bool {
        match self.kernel {
            Some(kernel) => kernel.is_canonical_at(self.tier, index, p, cache),
            None => self.game.canonical(p) == p,
        }
    }

    fn canon(&self, p: Position) -> Position {
        if self.canonicalize {
            self.game.canonical(p)
        } else {
            p
        }
    }

    /// Children in place made canonical, sorted and distinct.
    fn canonical_children(&self, out: &mut Vec<Position>) {
        if self.canonicalize {
            for c in out.iter_mut() {
                *c = self.game.canonical(*c);
            }
        }
        out.sort_unstable();
        out.dedup();
    }

    /// Distinct indices of the parents of `child` within the tier.
    fn parents(
        &self,
        child: u64,
        reverse: Option<&ReverseEdges>,
        scratch: &mut Vec<Position>,
        out: &mut Vec<u64>,
        cache: &mut KernelCache,
    ) {
        out.clear();
        if let Some(rev) = reverse {
            let (lo, hi) = (rev.offsets[child as usize], rev.offsets[child as usize + 1]);
            out.extend_from_slice(&rev.parents[lo as usize..hi as usize]);
            return;
        }
        scratch.clear();
        let Some(position) = self.position_at(child) else { return };
        if let Some(kernel) = self.kernel {
            kernel.parent_indices(self.tier, position, out, cache);
            return;
        }
        self.game.undo_moves_in_tier(position, scratch);
        for &p in scratch.iter() {
            let p = self.canon(p);
            if self.one_tier || self.game.tier(p) == self.tier {
                if let Some(i) = self.index(p) {
                    out.push(i);
                }
            }
        }
        out.sort_unstable();
        out.dedup();
    }

    /// Solves the tier; returns the value of every position of the space, in index order.
    /// In a dense space, positions that are not canonical get a placeholder (draw): nothing
    /// refers to them, every lookup goes through the canonical form.
    /// The tier's values, with which indices name canonical positions where the tier is dense
    /// and canonicalized ([`crate::SolvedTier::care`]); `None` on a rank other than the first of
    /// those sharing the tier (the first gathers the values).
    pub fn solve(
        &self,
        mut store: Option<&mut dyn PartStore>,
        ranks: &dyn Ranks,
        progress: &dyn Progress,
    ) -> Result<Option<Solved>, SolveError> {
        if !self.start_wide {
            match self.attempt(
                true,
                store.as_mut().map(|s| &mut **s as &mut dyn PartStore),
                ranks,
                progress,
            ) {
                Err(Fail::Narrow(why)) => progress.note(&format!(
                    "tier {}: one-byte cells were too small ({why}); solving again with two-byte \
                     cells",
                    self.game.tier_name(self.tier)
                )),
                Err(Fail::Error(e)) => return Err(e),
                Ok(values) => return Ok(values),
            }
        }
        match self.attempt(false, store.map(|s| s as &mut dyn PartStore), ranks, progress) {
            Ok(values) => Ok(values),
            Err(Fail::Error(e)) => Err(e),
            Err(Fail::Narrow(_)) => Err(SolveError::TooManyChildren { position: Position(0) }),
        }
    }

    /// What the tier's solve holds besides its cells.
    fn layout(&self) -> Layout {
        let dense = matches!(self.space, TierSpace::Dense { .. });
        Layout {
            dense,
            keeps_care: dense && self.canonicalize,
            has_external: !self.one_tier && holds_external(self.game, self.tier, dense),
        }
    }

    fn attempt<'s>(
        &self,
        one_byte: bool,
        store: Option<&'s mut dyn PartStore>,
        ranks: &'s dyn Ranks,
        progress: &dyn Progress,
    ) -> Result<Option<Solved>, Fail> {
        let n = self.space.len();
        let Layout { keeps_care, has_external, .. } = self.layout();
        let codes = Codes::new(Cells::limits_of(one_byte).1);
        // One bit per index, written by each chunk in place.
        let care_words: Vec<AtomicU64> =
            (0..if keeps_care { n.div_ceil(64) } else { 0 }).map(|_| AtomicU64::new(0)).collect();
        let mut plan = self.plan(one_byte, has_external, ranks.size());
        if ranks.size() > 1 {
            // Ranks sharing the tier cut it alike: the smallest parts any of them planned.
            plan.shift = 63 - ranks.max(u64::from(63 - plan.shift)) as u32;
        }
        let mut parts = Parts::new(plan, self.tier, self.budget.unwrap_or(u64::MAX), store, ranks);
        // The first rank starts the store afresh where needed, before any rank reads it.
        let begun = if ranks.rank() == 0 { parts.begin(one_byte) } else { Ok(()) };
        agree(ranks, begun.map_err(Fail::from))?;
        let collect_edges = !self.game.has_undo_moves();
        if collect_edges && parts.count() > 1 {
            return Err(Fail::Error(SolveError::Unsupported {
                what: "a tier in parts of a game without undo-moves".into(),
            }));
        }
        let name = self.game.tier_name(self.tier);
        if parts.count() > 1 {
            let shared = if ranks.size() > 1 {
                format!(", solving those numbered {} mod {}", ranks.rank(), ranks.size())
            } else {
                String::new()
            };
            progress.note(&format!(
                "tier {name}: {n} indices in {} parts of {} indices{shared}",
                parts.count(),
                1u64 << plan.shift
            ));
        }
        progress.begin(&format!("tier {name}: initialise"), Some(n));
        // Fox and Geese's tiers have a hundred children and more: found by their number.
        let child_tiers = ChildTiers::new(
            self.child_values
                .iter()
                .map(|&(tier, space, first, values)| ChildTier::new(tier, space, first, values))
                .collect(),
        );
        let started = self.initialise_parts(
            &mut parts,
            &codes,
            &care_words,
            one_byte,
            &child_tiers,
            progress,
        );
        let (undecided, sources, edges, touched) = agree(ranks, started)?;
        progress.end();
        let seeding = match (touched, self.kernel) {
            (Some(_), Some(kernel)) => Some(Seeding {
                child_tiers: &child_tiers,
                kernel,
                max_counter: Cells::limits_of(one_byte).0,
                one_byte,
                failed: Mutex::new(None),
            }),
            _ => None,
        };
        // Whether any rank has positions left for the retrograde rounds.
        if ranks.max(undecided) > 0 {
            let reverse = collect_edges.then(|| reverse_edges(n as usize, edges));
            progress.begin(&format!("tier {name}: retrograde"), Some(undecided + sources));
            let rounds =
                self.phases(&mut parts, &codes, reverse.as_ref(), seeding.as_ref(), progress);
            agree(ranks, rounds.map_err(Fail::from))?;
            if let Some(failed) = seeding.as_ref().and_then(|s| s.failed.lock().ok()?.take()) {
                return Err(failed);
            }
            progress.end();
            let overflow = codes.overflow.load(Relaxed);
            agree(ranks, if overflow { Err(Fail::Narrow(NARROW_VALUES)) } else { Ok(()) })?;
        }
        if parts.count() > 1 {
            let traded = if ranks.size() > 1 {
                let (batches, bytes) = parts.traded;
                format!(", {batches} batches of mail ({bytes} bytes) handed to other ranks")
            } else {
                String::new()
            };
            progress.note(&format!("tier {name}: {} parts swapped back in{traded}", parts.swaps));
        }
        let values = if ranks.size() > 1 {
            parts.gather(&codes, &care_words)?
        } else {
            Some(parts.into_values(&codes, self.spare)?)
        };
        let care = keeps_care.then(|| care_words.into_iter().map(AtomicU64::into_inner).collect());
        Ok(values.map(|v| (v, care)))
    }

    /// How the tier is cut: whole where it fits its budget (or has none), else in parts of which
    /// about four fit the budget at once; shared over ranks, in at least four parts a rank.
    fn plan(&self, one_byte: bool, has_external: bool, ranks: usize) -> Plan {
        let n = self.space.len();
        let Some(budget) = self.budget else { return Plan::whole(n) };
        let per_index = u64::from(!one_byte) + 1 + if has_external { 2 } else { 0 } + 1;
        if ranks == 1 && n.saturating_mul(per_index) <= budget {
            return Plan::whole(n);
        }
        // A part's places in a message take 31 bits.
        let mut size = (budget / per_index / 4).min(1 << 31);
        if ranks > 1 {
            size = size.min(n / (4 * ranks as u64));
        }
        Plan::at_most(n, size, CHUNK as u64)
    }
}

fn reverse_edges(n: usize, mut edges: Vec<(u64, u64)>) -> ReverseEdges {
    edges.par_sort_unstable();
    edges.dedup();
    let mut offsets = vec![0u64; n + 1];
    for &(c, _) in &edges {
        offsets[c as usize + 1] += 1;
    }
    for i in 0..n {
        offsets[i + 1] += offsets[i];
    }
    ReverseEdges { offsets, parents: edges.into_iter().map(|(_, p)| p).collect() }
}
