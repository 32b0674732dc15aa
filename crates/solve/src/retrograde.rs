//! The retrograde engine: solves one tier whose child tiers are already solved (003 Algorithms 2
//! and 3). Loopy and loop-free alike:
//!
//! 1. **Initialise** (parallel): a primitive is decided at remoteness 0; otherwise the distinct
//!    canonical children are split into those outside the tier, whose solved values fold into the
//!    best result so far, and those inside it, which are counted. A position with no children inside
//!    the tier is decided at once (a loop-free tier ends here).
//! 2. **Win/lose by remoteness**: level `r` holds the positions decided with remoteness `r`. A lose
//!    at `r` makes every undecided parent a win at `r + 1`; a win at `r` takes one off each parent's
//!    counter of undecided children, and a parent whose counter reaches zero loses at
//!    `max(r + 1, its worst external loss)`. Levels are processed in increasing order, so a win is
//!    claimed at its smallest remoteness and a loss at its largest.
//! 3. **Ties by remoteness**, the same way among what is left: a tie at `r` makes every undecided
//!    parent a tie at `r + 1`.
//! 4. What remains undecided is a **draw**.
//!
//! Each position holds one `AtomicU16` during the solve: bit 15 set means decided, with the packed
//! [`ValueRemoteness`] below it; clear means undecided, with the count of undecided children.
//! A tier with children inside itself also holds, per position, the best result from outside the
//! tier (2 bytes). Counters count distinct canonical children, and a decided child's parents are
//! deduplicated by canonical form, so symmetric positions are counted once on both sides.

use std::sync::atomic::{AtomicU16, Ordering::Relaxed};

use perfectplay_core::{Game, Position, Remoteness, Tier, Value, ValueRemoteness};
use rayon::prelude::*;

use crate::progress::Progress;
use crate::space::TierSpace;
use crate::SolveError;

const DECIDED: u16 = 1 << 15;
const NO_EXTERNAL: u16 = u16::MAX;
const CHUNK: usize = 1 << 12;

/// Everything the engine needs to solve one tier.
pub(crate) struct TierProblem<'a, G: Game + ?Sized> {
    pub game: &'a G,
    pub tier: Tier,
    pub space: &'a TierSpace,
    /// Whether positions (and children, and parents) are reduced to canonical form.
    pub canonicalize: bool,
    /// The solved value of a canonical position in a lower tier.
    pub external: &'a (dyn Fn(Tier, Position) -> Option<ValueRemoteness> + Sync),
}

/// Parent lists within the tier, built from forward moves for games without undo-moves.
struct ReverseEdges {
    offsets: Vec<u64>,
    parents: Vec<u64>,
}

impl<G: Game + ?Sized> TierProblem<'_, G> {
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
    ) {
        out.clear();
        if let Some(rev) = reverse {
            let (lo, hi) = (rev.offsets[child as usize], rev.offsets[child as usize + 1]);
            out.extend_from_slice(&rev.parents[lo as usize..hi as usize]);
            return;
        }
        scratch.clear();
        self.game.undo_moves(self.space.position(child), scratch);
        for &p in scratch.iter() {
            let p = self.canon(p);
            if self.game.tier(p) == self.tier {
                if let Some(i) = self.space.index_of(p) {
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
    pub fn solve(&self, progress: &dyn Progress) -> Result<Vec<ValueRemoteness>, SolveError> {
        let n = self.space.len() as usize;
        let dense = matches!(self.space, TierSpace::Dense { .. });
        let state: Vec<AtomicU16> = (0..n).map(|_| AtomicU16::new(0)).collect();
        let mut external = vec![NO_EXTERNAL; n];
        let collect_edges = !self.game.has_undo_moves();
        progress.begin(&format!("tier {}: initialise", self.tier.0), Some(n as u64));
        let edges: Vec<(u64, u64)> = state
            .par_chunks(CHUNK)
            .zip(external.par_chunks_mut(CHUNK))
            .enumerate()
            .map(|(chunk, (cells, ext))| {
                let mut children = Vec::new();
                let mut edges = Vec::new();
                let mut positions = Vec::with_capacity(CHUNK);
                let first = (chunk * CHUNK) as u64;
                self.space.positions_into(first..first + cells.len() as u64, &mut positions);
                for (k, (cell, ext)) in cells.iter().zip(ext.iter_mut()).enumerate() {
                    let index = first + k as u64;
                    let p = Position(positions[k]);
                    if dense && self.canonicalize && self.game.canonical(p) != p {
                        cell.store(DECIDED | ValueRemoteness::DRAW.to_bits(), Relaxed);
                        continue;
                    }
                    if let Some(v) = self.game.primitive(p) {
                        cell.store(
                            DECIDED | ValueRemoteness::new(v, Remoteness(0)).to_bits(),
                            Relaxed,
                        );
                        continue;
                    }
                    self.children(p, &mut children);
                    if children.is_empty() {
                        return Err(SolveError::NoMoves { position: p });
                    }
                    let mut best: Option<ValueRemoteness> = None;
                    let mut inside = 0u32;
                    for &c in &children {
                        let child_tier = self.game.tier(c);
                        if child_tier == self.tier {
                            inside += 1;
                            if collect_edges {
                                let ci = self
                                    .space
                                    .index_of(c)
                                    .ok_or(SolveError::ChildNotSolved { position: c })?;
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
                        cell.store(DECIDED | best.to_bits(), Relaxed);
                        continue;
                    }
                    if let Some(b) = best {
                        // A tie or draw outside the tier means this position never loses: a
                        // counter that never reaches zero.
                        if matches!(b.value(), Value::Tie | Value::Draw) {
                            inside += 1;
                        }
                        *ext = b.to_bits();
                    }
                    if inside >= u32::from(DECIDED) {
                        return Err(SolveError::TooManyChildren { position: p });
                    }
                    cell.store(inside as u16, Relaxed);
                }
                progress.advance(cells.len() as u64);
                Ok(edges)
            })
            .try_reduce(Vec::new, |mut a, mut b| {
                a.append(&mut b);
                Ok(a)
            })?;
        progress.end();

        let undecided = state.par_iter().filter(|c| c.load(Relaxed) & DECIDED == 0).count();
        if undecided > 0 {
            let reverse = collect_edges.then(|| reverse_edges(n, edges));
            self.retrograde(&state, &external, reverse.as_ref(), progress);
        }
        drop(external);
        Ok(state
            .into_par_iter()
            .map(|c| {
                let bits = c.into_inner();
                if bits & DECIDED == 0 {
                    ValueRemoteness::DRAW
                } else {
                    ValueRemoteness::from_bits(bits & !DECIDED).unwrap_or(ValueRemoteness::DRAW)
                }
            })
            .collect())
    }

    /// Steps 2 and 3: win/lose levels, then tie levels. Undecided positions stay undecided (draws).
    fn retrograde(
        &self,
        state: &[AtomicU16],
        external: &[u16],
        reverse: Option<&ReverseEdges>,
        progress: &dyn Progress,
    ) {
        let decided = |i: usize| {
            let s = state[i].load(Relaxed);
            (s & DECIDED != 0).then(|| ValueRemoteness::from_bits(s & !DECIDED)).flatten()
        };
        // Sources decided during initialisation, and candidates from outside the tier.
        let mut win_lose: Vec<Vec<(u64, u16)>> = Vec::new();
        let mut ties: Vec<Vec<(u64, u16)>> = Vec::new();
        let push = |levels: &mut Vec<Vec<(u64, u16)>>, i: u64, vr: ValueRemoteness| {
            let r = vr.remoteness_or_zero() as usize;
            if levels.len() <= r {
                levels.resize_with(r + 1, Vec::new);
            }
            levels[r].push((i, vr.to_bits()));
        };
        for (i, &ext) in external.iter().enumerate() {
            if let Some(vr) = decided(i) {
                match vr.value() {
                    Value::Win | Value::Lose => push(&mut win_lose, i as u64, vr),
                    Value::Tie => push(&mut ties, i as u64, vr),
                    Value::Draw => {}
                }
            } else if let Some(ext) = ValueRemoteness::from_bits(ext) {
                match ext.value() {
                    Value::Win => push(&mut win_lose, i as u64, ext),
                    Value::Tie => push(&mut ties, i as u64, ext),
                    _ => {}
                }
            }
        }
        progress.begin(&format!("tier {}: retrograde", self.tier.0), None);
        for phase_ties in [false, true] {
            let levels = if phase_ties { &mut ties } else { &mut win_lose };
            let mut r = 0;
            while r < levels.len() {
                let entries = std::mem::take(&mut levels[r]);
                // Claim: an entry decides its position unless something decided it already
                // (sources are decided already and pass through).
                let frontier: Vec<u64> = entries
                    .par_iter()
                    .filter_map(|&(i, bits)| {
                        let cell = &state[i as usize];
                        let mut s = cell.load(Relaxed);
                        loop {
                            if s & DECIDED != 0 {
                                return (s == DECIDED | bits).then_some(i);
                            }
                            match cell.compare_exchange_weak(s, DECIDED | bits, Relaxed, Relaxed) {
                                Ok(_) => return Some(i),
                                Err(now) => s = now,
                            }
                        }
                    })
                    .collect();
                let mut frontier = frontier;
                frontier.sort_unstable();
                frontier.dedup();
                let pushes: Vec<(u64, u16)> = frontier
                    .par_chunks(CHUNK)
                    .flat_map_iter(|chunk| {
                        let mut scratch = Vec::new();
                        let mut parents = Vec::new();
                        let mut out = Vec::new();
                        for &c in chunk {
                            let Some(vr) = decided(c as usize) else { continue };
                            self.parents(c, reverse, &mut scratch, &mut parents);
                            for &j in &parents {
                                if let Some(next) = self.propagate(state, external, j, vr) {
                                    out.push((j, next.to_bits()));
                                }
                            }
                        }
                        out
                    })
                    .collect();
                progress.advance(frontier.len() as u64);
                for (j, bits) in pushes {
                    if let Some(vr) = ValueRemoteness::from_bits(bits) {
                        push(levels, j, vr);
                    }
                }
                r += 1;
            }
        }
        progress.end();
    }

    /// What a decided child `vr` makes of its undecided parent `j`: a candidate to push, if any.
    fn propagate(
        &self,
        state: &[AtomicU16],
        external: &[u16],
        j: u64,
        vr: ValueRemoteness,
    ) -> Option<ValueRemoteness> {
        let cell = &state[j as usize];
        let r = vr.remoteness_or_zero();
        match vr.value() {
            Value::Lose | Value::Tie => (cell.load(Relaxed) & DECIDED == 0).then(|| vr.to_parent()),
            Value::Win => {
                let mut s = cell.load(Relaxed);
                loop {
                    if s & DECIDED != 0 || s == 0 {
                        return None;
                    }
                    match cell.compare_exchange_weak(s, s - 1, Relaxed, Relaxed) {
                        Ok(_) => break,
                        Err(now) => s = now,
                    }
                }
                if s != 1 {
                    return None;
                }
                // Every child inside the tier wins; the parent loses unless something outside
                // the tier does better (a win outside is already queued at its own level).
                let lose = ValueRemoteness::new(Value::Lose, Remoteness(r + 1));
                let best =
                    ValueRemoteness::from_bits(external[j as usize]).map_or(lose, |e| e.max(lose));
                (best.value() == Value::Lose).then_some(best)
            }
            Value::Draw => None,
        }
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
