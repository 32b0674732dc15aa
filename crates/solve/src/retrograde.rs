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
mod kept;
mod parts;
mod phases;
mod shared;
use cells::{Cells, Codes};
use parts::{PartCells, Parts, Plan};

/// Set in a (widened) cell when the position is decided.
const DECIDED: u16 = 1 << 15;
const NO_EXTERNAL: u16 = u16::MAX;
const CHUNK: usize = 1 << 12;
/// Chunks whose decided positions are listed at once on their way into the queues.
const SOURCE_BATCH: usize = 1 << 10;
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
/// as sources), and the edges inside the tier (games without undo-moves).
type Initialised = (u64, u64, Vec<(u64, u64)>);

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
    /// The solved value of a canonical position in a lower tier.
    pub external: &'a (dyn Fn(Tier, Position) -> Option<ValueRemoteness> + Sync),
    /// The solved child tiers' values, by index (for the kernel's child locations).
    /// Each with the index its values begin at (a solve under a memory limit may hold a window).
    pub child_values: &'a [(Tier, u64, &'a TierValues)],
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
}

/// An estimate of the bytes solving a tier takes beyond the solved tiers already held: a cell per
/// position (one byte, two if the game needs them), the best external result (two bytes) where
/// children can lie outside the tier, frontier queues (4 bytes per queued position, 8 in a tier
/// of more than 2^32 indices; at worst every canonical position, counted as a quarter of the
/// indices), the tier's stored values (one byte) and, in a dense tier of a game with symmetries,
/// the bitmap of the indices that name canonical positions (a bit).
pub(crate) fn bytes_needed<G: Game + ?Sized>(game: &G, tier: Tier, space: &TierSpace) -> u64 {
    let n = space.len();
    let dense = matches!(space, TierSpace::Dense { .. });
    let external = if dense && game.child_tiers(tier).is_empty() { 0 } else { 2 * n };
    let queues = n / 4 * queue_entry_bytes(n as usize);
    let care = if dense && game.symmetry_count() > 1 { n.div_ceil(64) * 8 } else { 0 };
    n + external + queues + n + care
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
    /// The best result from outside the tier, where a child can be outside it: not in a single
    /// dense tier, nor in a tier of a tiered game that has no child tiers.
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

    /// Distinct canonical children of `p`, into `out` (sorted).
    fn children(&self, p: Position, out: &mut Vec<Position>) {
        out.clear();
        self.game.children(p, out);
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
            has_external: !(self.one_tier || dense && self.game.child_tiers(self.tier).is_empty()),
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
        let started = self.initialise_parts(&mut parts, &codes, &care_words, one_byte, progress);
        let (undecided, sources, edges) = agree(ranks, started)?;
        progress.end();
        // Whether any rank has positions left for the retrograde rounds.
        if ranks.max(undecided) > 0 {
            let reverse = collect_edges.then(|| reverse_edges(n as usize, edges));
            progress.begin(&format!("tier {name}: retrograde"), Some(undecided + sources));
            let rounds = self.phases(&mut parts, &codes, reverse.as_ref(), progress);
            agree(ranks, rounds.map_err(Fail::from))?;
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
            Some(parts.into_values(&codes)?)
        };
        let care = keeps_care.then(|| care_words.into_iter().map(AtomicU64::into_inner).collect());
        Ok(values.map(|v| (v, care)))
    }

    /// Initialises the parts this rank owns, each read back from the store where an earlier solve
    /// kept it.
    fn initialise_parts(
        &self,
        parts: &mut Parts<'_>,
        codes: &Codes,
        care_words: &[AtomicU64],
        one_byte: bool,
        progress: &dyn Progress,
    ) -> Result<Initialised, Fail> {
        let n = self.space.len();
        let Layout { dense, keeps_care, has_external } = self.layout();
        let max_counter = Cells::limits_of(one_byte).0;
        let collect_edges = !self.game.has_undo_moves();
        // Fox and Geese's tiers have a hundred children and more: found by their number.
        let child_tiers = ChildTiers::new(
            self.child_values
                .iter()
                .map(|&(tier, first, values)| ChildTier::new(tier, first, values))
                .collect(),
        );
        let plan = parts.plan;
        let mut edges = Vec::new();
        let (mut undecided, mut sources, mut read_back) = (0u64, 0u64, 0usize);
        for k in 0..parts.count() {
            let range = plan.range(k);
            if !parts.ranks.owns(k) {
                progress.advance(range.end - range.start);
                continue;
            }
            let kept =
                parts.count() > 1 && parts.resume_initialised(k, codes, care_words, one_byte)?;
            if kept {
                read_back += 1;
                progress.advance(range.end - range.start);
            } else {
                // Room first: the part's cells and best results, and its queues at a byte an
                // index at worst.
                let width = if one_byte { 1 } else { 2 };
                let need =
                    (range.end - range.start) * (width + 1 + if has_external { 2 } else { 0 });
                parts.make_room(k, need, codes)?;
                let part = PartCells::new(range.clone(), one_byte, has_external);
                let start = Start {
                    part: &part,
                    codes,
                    child_tiers: &child_tiers,
                    max_counter,
                    one_byte,
                    collect_edges,
                    dense,
                    care_words: keeps_care.then_some(care_words),
                };
                let chunks = (range.start / CHUNK as u64) as usize
                    ..range.end.div_ceil(CHUNK as u64) as usize;
                let found: Vec<ChunkStart> = chunks
                    .into_par_iter()
                    .map(|chunk| self.initialise(&start, chunk, progress))
                    .collect::<Result<_, Fail>>()?;
                if codes.overflow.load(Relaxed) {
                    return Err(Fail::Narrow(NARROW_VALUES));
                }
                for mut e in found {
                    edges.append(&mut e);
                }
                parts.cells[k] = Some(part);
            }
            if let (false, Some(part)) = (kept, &parts.cells[k]) {
                let (queues, open) = part.sources(codes);
                parts.queues[k] = Some(queues);
                if parts.count() > 1 {
                    parts.keep_initialised(k, codes, care_words)?;
                }
                undecided += open;
            } else if let Some(part) = &parts.cells[k] {
                undecided += part.undecided();
            }
            if let Some(q) = &parts.queues[k] {
                sources += q.decided();
            }
            parts.settle(k, codes)?;
        }
        if read_back > 0 {
            progress.note(&format!(
                "tier {}: {read_back} of {} parts initialised by an earlier solve, read back",
                self.game.tier_name(self.tier),
                parts.count()
            ));
        }
        debug_assert!(n == plan.n);
        Ok((undecided, sources, edges))
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

    /// Initialises one chunk of the tier: its cells, external results and words of the bitmap of
    /// canonical indices; returns its edges inside the tier.
    fn initialise(
        &self,
        start: &Start<'_, '_>,
        chunk: usize,
        progress: &dyn Progress,
    ) -> Result<ChunkStart, Fail> {
        if progress.stopped() {
            return Err(SolveError::Stopped.into());
        }
        let part = start.part;
        let n = part.first + part.cells.len() as u64;
        let mut scratch = Scratch::default();
        let mut edges = Vec::new();
        let first = (chunk * CHUNK) as u64;
        let last = (first + CHUNK as u64).min(n);
        let mut care = [0u64; CHUNK / 64];
        let positions: Vec<Option<Position>> = if let Some(kernel) = self.kernel {
            let mut positions = vec![None; (last - first) as usize];
            kernel.tier_positions(self.tier, first, &mut positions);
            positions
        } else if start.dense {
            (first..last).map(|i| self.game.tier_position(self.tier, i)).collect()
        } else {
            let mut keys = Vec::with_capacity(CHUNK);
            self.space.positions_into(first..last, &mut keys);
            keys.iter().map(|&k| Some(Position(k))).collect()
        };
        for (k, &p) in positions.iter().enumerate() {
            let index = first + k as u64;
            // Indices that name no position, or a position that is not canonical, are
            // placeholders: nothing refers to them.
            let p = match p {
                Some(p)
                    if !(start.dense
                        && self.canonicalize
                        && !self.is_canonical(p, index, &mut scratch.cache)) =>
                {
                    p
                }
                _ => {
                    part.cells.store((index - part.first) as usize, DECIDED | DRAW_CODE);
                    continue;
                }
            };
            care[k / 64] |= 1 << (k % 64);
            self.initialise_position(start, p, index, &mut scratch, &mut edges)?;
        }
        if let Some(words) = start.care_words {
            for (k, &word) in care.iter().enumerate() {
                if let Some(w) = words.get(chunk * (CHUNK / 64) + k) {
                    w.store(word, Relaxed);
                }
            }
        }
        progress.advance(positions.len() as u64);
        Ok(edges)
    }

    /// Initialises the cell of canonical position `p` at `index`: decided where it is primitive
    /// or has no children inside the tier, else the count of its children inside the tier, with
    /// its best result from outside the tier kept; its edges inside the tier go to `edges`.
    #[inline]
    fn initialise_position(
        &self,
        start: &Start<'_, '_>,
        p: Position,
        index: u64,
        scratch: &mut Scratch,
        edges: &mut ChunkStart,
    ) -> Result<(), Fail> {
        let i = (index - start.part.first) as usize;
        let (cells, codes, external) = (&start.part.cells, start.codes, &start.part.external);
        if let Some(v) = self.game.primitive(p) {
            let vr = ValueRemoteness::new(v, Remoteness(0));
            cells.store(i, DECIDED | codes.code(vr));
            return Ok(());
        }
        let mut best: Option<ValueRemoteness> = None;
        let mut inside = 0u32;
        let Scratch { children, locations, cache, blocks } = scratch;
        if let Some(kernel) = self.kernel {
            kernel.child_locations_unsorted(p, locations, cache);
            children.clear();
        } else {
            self.children(p, children);
            locations.clear();
        }
        if children.is_empty() && locations.is_empty() {
            return Err(SolveError::NoMoves { position: p }.into());
        }
        let mut best_key = i32::MIN;
        for &(child_tier, ci) in locations.iter() {
            if child_tier == self.tier {
                inside += 1;
                if start.collect_edges {
                    edges.push((ci, index));
                }
            } else {
                let (key, vr) = start
                    .child_tiers
                    .find(child_tier)
                    .and_then(|c| c.parent_value(ci, blocks))
                    .ok_or(SolveError::ChildNotSolved { position: p })?;
                if key > best_key {
                    best_key = key;
                    best = Some(vr);
                }
            }
        }
        for &c in children.iter() {
            let child_tier = if self.one_tier { self.tier } else { self.game.tier(c) };
            if child_tier == self.tier {
                inside += 1;
                if start.collect_edges {
                    let ci = self.index(c).ok_or(SolveError::ChildNotSolved { position: c })?;
                    edges.push((ci, index));
                }
            } else {
                let vr = (self.external)(child_tier, c)
                    .ok_or(SolveError::ChildNotSolved { position: c })?
                    .to_parent();
                best = Some(best.map_or(vr, |b| b.max(vr)));
            }
        }
        if inside == 0 {
            // `children` is non-empty, so `best` is set.
            let best = best.unwrap_or(ValueRemoteness::DRAW);
            cells.store(i, DECIDED | codes.code(best));
            return Ok(());
        }
        if let Some(b) = best {
            match b.value() {
                // A tie or draw outside the tier means this position never loses: a counter that
                // never reaches zero.
                Value::Tie | Value::Draw => inside += 1,
                _ => {}
            }
            // A win or tie is a candidate: read back after initialisation. A child outside a
            // tier that declared no child tiers: the game's tiers are inconsistent.
            external
                .get(i)
                .ok_or(SolveError::ChildNotSolved { position: p })?
                .store(b.to_bits(), Relaxed);
        }
        if inside > start.max_counter {
            return Err(if start.one_byte {
                Fail::Narrow(NARROW_CHILDREN)
            } else {
                SolveError::TooManyChildren { position: p }.into()
            });
        }
        cells.store(i, inside as u16);
        Ok(())
    }
}

/// A solved child tier as its parents see it: per dictionary code, the value a child of that code
/// gives its parent, with the value's order key (the best child is found by comparing integers).
struct ChildTier<'v> {
    tier: Tier,
    /// The index of `values`' first.
    first: u64,
    values: &'v TierValues,
    parents: Vec<(i32, ValueRemoteness)>,
}

/// A tier's child tiers, found by the tier's number: through a table where the numbers are
/// small, else by binary search.
struct ChildTiers<'v> {
    tiers: Vec<ChildTier<'v>>,
    /// Per tier number: its place in `tiers`, or `u32::MAX`. Empty where the numbers are large.
    by_number: Vec<u32>,
}

impl<'v> ChildTiers<'v> {
    /// The largest tier number looked up through a table.
    const TABLE: u32 = 1 << 16;

    fn new(mut tiers: Vec<ChildTier<'v>>) -> ChildTiers<'v> {
        tiers.sort_by_key(|c| c.tier);
        let mut by_number = Vec::new();
        if let Some(last) = tiers.last().filter(|c| c.tier.0 < Self::TABLE) {
            by_number = vec![u32::MAX; last.tier.0 as usize + 1];
            for (k, c) in tiers.iter().enumerate() {
                by_number[c.tier.0 as usize] = k as u32;
            }
        }
        ChildTiers { tiers, by_number }
    }

    #[inline]
    fn find(&self, tier: Tier) -> Option<&ChildTier<'v>> {
        if self.by_number.is_empty() {
            let k = self.tiers.binary_search_by_key(&tier, |c| c.tier).ok()?;
            return self.tiers.get(k);
        }
        let k = *self.by_number.get(tier.0 as usize)?;
        self.tiers.get(k as usize)
    }
}

impl<'v> ChildTier<'v> {
    fn new(tier: Tier, first: u64, values: &'v TierValues) -> ChildTier<'v> {
        let parents = match values {
            TierValues::Narrow { dictionary, .. }
            | TierValues::Packed(crate::PackedCodes { dictionary, .. }) => dictionary
                .iter()
                .map(|vr| {
                    let p = vr.to_parent();
                    (p.order_key(), p)
                })
                .collect(),
            TierValues::Wide(_) => Vec::new(),
        };
        ChildTier { tier, first, values, parents }
    }

    /// What the child at `index` gives its parent (`None` outside the values held).
    #[inline]
    fn parent_value(&self, index: u64, cache: &mut BlockCache) -> Option<(i32, ValueRemoteness)> {
        let i = usize::try_from(index.checked_sub(self.first)?).ok()?;
        match self.values {
            TierValues::Narrow { codes, .. } => {
                self.parents.get(usize::from(*codes.get(i)?)).copied()
            }
            TierValues::Packed(p) => self.parents.get(usize::from(p.code(i, cache)?)).copied(),
            TierValues::Wide(v) => v.get(i).map(|vr| {
                let p = vr.to_parent();
                (p.order_key(), p)
            }),
        }
    }
}

/// What initialising a tier's chunks share.
struct Start<'a, 'v> {
    /// The part initialised.
    part: &'a PartCells,
    codes: &'a Codes,
    child_tiers: &'a ChildTiers<'v>,
    /// The largest count of children inside the tier a cell holds.
    max_counter: u32,
    one_byte: bool,
    /// Whether edges inside the tier are listed (games without undo-moves).
    collect_edges: bool,
    dense: bool,
    /// The bitmap of canonical indices, where it is kept.
    care_words: Option<&'a [AtomicU64]>,
}

/// One chunk's buffers and caches.
#[derive(Default)]
struct Scratch {
    children: Vec<Position>,
    locations: Vec<(Tier, u64)>,
    cache: KernelCache,
    blocks: BlockCache,
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
