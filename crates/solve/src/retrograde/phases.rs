//! The retrograde rounds after initialisation: the win/lose phase, then the phase of ties, each
//! level by level in increasing remoteness, and within a level part by part (a tier that fits is
//! one part).
//!
//! A decided position's parents are updated where they lie: in its own part or another part in
//! memory at once, in a part swapped out by mail, delivered in level order before that part does
//! anything else. That is why the outcome does not depend on the order of the parts: a level's
//! updates decide positions of later levels only, every part takes its own candidates from outside
//! the tier at their level, and a claim never takes a position whose candidate from outside the
//! tier is at least as good (the candidate claims it at its own level, as it would have done
//! before anything else of that level anyway). For the same reason parts may be shared over ranks
//! ([`crate::Ranks`]): each rank runs a level for the parts it owns, and the mail for other ranks'
//! parts is traded before the next level.

use super::initialise::Scratch;
use super::parts::{PartCells, Parts, Queues};
use super::seeded::Seeding;
use super::*;
use crate::hint::prefetch;

/// How many entries of a level ahead of the one located its own cell is asked for.
const OWN_AHEAD: usize = 16;

/// Codes left in a one-byte dictionary below which a whole tier's cells are widened.
const WIDEN_MARGIN: usize = 24;

/// What a worker of a level keeps from chunk to chunk (see [`Scratch`]).
#[derive(Default)]
struct Worker {
    scratch: Vec<Position>,
    /// The parents of the entry waiting to update them, and of the entry located last.
    parents: Vec<u64>,
    located: Vec<u64>,
    cache: KernelCache,
    seed_scratch: Scratch,
    /// The chunk's entries.
    entries: Vec<u64>,
}

/// What one level needs: the dictionary as of its start, and what the next level's positions
/// get. Their codes are taken when a position first gets one (one-byte cells hold 127 codes: a
/// code for every level's win and loss, used or not, would run out in a tier with a remoteness
/// above 63 that has fewer values).
pub(super) struct Step {
    table: Vec<ValueRemoteness>,
    /// What a parent of a loss (or, in the phase of ties, of a tie) becomes.
    claim: ValueRemoteness,
    /// What a parent all of whose children inside the tier win becomes, unless something
    /// outside the tier does better.
    lose: ValueRemoteness,
}

impl Step {
    fn at(codes: &Codes, r: usize, ties: bool) -> Step {
        let next = Remoteness(r as u16 + 1);
        Step {
            table: codes.snapshot(),
            claim: ValueRemoteness::new(if ties { Value::Tie } else { Value::Win }, next),
            lose: ValueRemoteness::new(Value::Lose, next),
        }
    }
}

/// Parents decided by one task, by tier index: those of the next level, (level, index) of later
/// ones; and mail for parts swapped out, (part, message).
type Decided = (Vec<u64>, Vec<(u16, u64)>, Vec<(u32, u32)>);

impl PartCells {
    /// What position `i` of the part starts the retrograde phases as: decided (`true`) as a win,
    /// loss or tie by initialisation, or a candidate (`false`) for the win or tie its best
    /// external result gives; `None` for a draw or a position with nothing to propagate yet.
    #[inline]
    fn source(&self, i: usize, dictionary: &[ValueRemoteness]) -> Option<(ValueRemoteness, bool)> {
        let s = self.cells.load(i);
        if s & DECIDED != 0 {
            let vr = *dictionary.get(usize::from(s & !DECIDED))?;
            return (vr.value() != Value::Draw).then_some((vr, true));
        }
        let vr = self.external_value(i)?;
        matches!(vr.value(), Value::Win | Value::Tie).then_some((vr, false))
    }

    #[inline]
    fn external_value(&self, i: usize) -> Option<ValueRemoteness> {
        self.external.get(i).and_then(|e| external_of(e.load(Relaxed)))
    }

    /// What a decided child whose value is `child` makes of position `i` of the part: the level
    /// it is decided at, if this decides it.
    #[inline]
    fn propagate(&self, codes: &Codes, step: &Step, i: usize, child: Value) -> Option<u16> {
        match child {
            Value::Lose | Value::Tie => {
                if self.cells.load(i) & DECIDED != 0 {
                    return None;
                }
                // A candidate from outside the tier at least as good claims it at its own level.
                if self.external_value(i).is_some_and(|e| e >= step.claim) {
                    return None;
                }
                self.cells
                    .claim(i, codes.code(step.claim))
                    .then_some(step.claim.remoteness_or_zero())
            }
            Value::Win => {
                let mut s = self.cells.load(i);
                loop {
                    if s & DECIDED != 0 || s == 0 {
                        return None;
                    }
                    match self.cells.cas(i, s, s - 1) {
                        Ok(()) => break,
                        Err(now) => s = now,
                    }
                }
                if s != 1 {
                    return None;
                }
                // Every child inside the tier wins; the parent loses unless something outside
                // the tier does better (a win outside is queued at its own level).
                let best = self.external_value(i).map_or(step.lose, |e| e.max(step.lose));
                if best.value() != Value::Lose {
                    return None;
                }
                self.cells.store(i, DECIDED | codes.code(best));
                Some(best.remoteness_or_zero())
            }
            Value::Draw => None,
        }
    }

    /// Asks for what [`PartCells::propagate`] reads of position `i` for a child `child`: its
    /// cell, and for a loss or tie its best result from outside (a win's parent reads that only
    /// when its last child is decided).
    #[inline]
    fn prefetch(&self, i: usize, child: Value) {
        self.cells.prefetch(i);
        if matches!(child, Value::Lose | Value::Tie) {
            if let Some(e) = self.external.get(i) {
                prefetch(e);
            }
        }
    }

    /// The positions of the part still undecided.
    pub(super) fn undecided(&self) -> u64 {
        (0..self.cells.len()).into_par_iter().filter(|&i| self.cells.load(i) & DECIDED == 0).count()
            as u64
    }

    /// Positions of the part that initialisation decided, or left undecided, and its sources
    /// queued by phase and remoteness. Each task queues its own indices' sources, so that the
    /// queues' memory is written and first touched on every thread; the tasks' queues are then
    /// joined in index order, block by block, nothing copied.
    pub(super) fn sources(&self, codes: &Codes) -> (Queues, u64) {
        let n = self.cells.len();
        let dictionary = codes.snapshot();
        let span = SOURCE_CHUNKS * CHUNK;
        let found: Vec<(Queues, u64)> = (0..n.div_ceil(span))
            .into_par_iter()
            .map(|t| {
                let mut queues = Queues::new(n as u64);
                let mut open = 0u64;
                for i in t * span..((t + 1) * span).min(n) {
                    open += u64::from(self.cells.load(i) & DECIDED == 0);
                    if let Some((vr, decided)) = self.source(i, &dictionary) {
                        queues.push_source(vr, decided, i as u64);
                    }
                }
                queues.shrink();
                (queues, open)
            })
            .collect();
        let mut queues = Queues::new(n as u64);
        let mut undecided = 0u64;
        for (q, open) in found {
            queues.append(q);
            undecided += open;
        }
        (queues, undecided)
    }
}

impl<G: Game + ?Sized> TierProblem<'_, G> {
    /// The win/lose phase, then the phase of ties, every level in increasing remoteness, part by
    /// part; asked to stop ([`Progress::stopped`]), it ends between two levels with
    /// [`SolveError::Stopped`].
    pub(super) fn phases(
        &self,
        parts: &mut Parts<'_>,
        codes: &Codes,
        reverse: Option<&ReverseEdges>,
        seeding: Option<&Seeding<'_, '_>>,
        progress: &dyn Progress,
    ) -> Result<(), SolveError> {
        let ranks = parts.ranks;
        for ties in [false, true] {
            let mut r = 0usize;
            let mut failed = Ok(());
            loop {
                self.widen_if_full(parts, codes, ties, r, progress);
                // Every rank goes on while any has work; all stop where one failed.
                let more = r < parts.levels(ties) || parts.has_mail();
                let stop = failed.is_err() || progress.stopped();
                match ranks.max(u64::from(more) | u64::from(stop) << 1) {
                    0 => break,
                    1 => {}
                    _ => {
                        failed?;
                        return Err(if progress.stopped() {
                            SolveError::Stopped
                        } else {
                            SolveError::Inconsistent {
                                what: "another rank sharing the tier failed".into(),
                            }
                        });
                    }
                }
                failed = (0..parts.count()).try_for_each(|k| {
                    if !ranks.owns(k) || !parts.has_work(k, r, ties) {
                        return Ok(());
                    }
                    parts.bring(k, codes)?;
                    deliver(parts, k, ties, codes)?;
                    self.level(parts, k, r, ties, codes, reverse, seeding, progress)?;
                    parts.settle(k, codes)
                });
                // The mail for other ranks' parts goes to them before their next level.
                if ranks.size() > 1 {
                    let traded = parts.trade_mail();
                    failed = failed.and(traded);
                }
                r += 1;
            }
        }
        Ok(())
    }

    /// Widens a whole tier's one-byte cells to two bytes, in place, where its dictionary has
    /// fewer than [`WIDEN_MARGIN`] codes left (between two levels: no update is under way) and
    /// the memory limit leaves room for both copies. A level gives a few new values, so the codes
    /// do not overflow; where one does all the same, the attempt is abandoned as before and the
    /// tier solved again.
    fn widen_if_full(
        &self,
        parts: &mut Parts<'_>,
        codes: &Codes,
        ties: bool,
        r: usize,
        progress: &dyn Progress,
    ) {
        let (_, narrow_codes) = Cells::limits_of(true);
        if parts.count() > 1 || parts.ranks.size() > 1 {
            return;
        }
        let Some(part) = parts.cells[0].as_mut() else { return };
        if !part.cells.is_narrow() || codes.len() + WIDEN_MARGIN < narrow_codes {
            return;
        }
        // Both copies are held while the cells are widened.
        if part.cells.len() as u64 * 2 > self.widen_room {
            return;
        }
        let cells = std::mem::replace(&mut part.cells, Cells::new(0, false, None));
        part.cells = cells.widened();
        codes.raise_limit(Cells::limits_of(false).1);
        let phase = if ties { "ties" } else { "wins and losses" };
        progress.note(&format!(
            "tier {}: one-byte cells widened to two bytes at level {r} of the {phase} ({} values)",
            self.game.tier_name(self.tier),
            codes.len()
        ));
    }

    /// Level `r` of a phase in part `k`: its candidates from outside the tier claim what is still
    /// undecided, then every position decided at `r` updates its parents.
    #[allow(clippy::too_many_arguments)]
    fn level(
        &self,
        parts: &mut Parts<'_>,
        k: usize,
        r: usize,
        ties: bool,
        codes: &Codes,
        reverse: Option<&ReverseEdges>,
        seeding: Option<&Seeding<'_, '_>>,
        progress: &dyn Progress,
    ) -> Result<(), SolveError> {
        let (Some(part), Some(queues)) = (&parts.cells[k], &mut parts.queues[k]) else {
            return Ok(());
        };
        let (claimed, candidates) = queues.phase(ties);
        // Candidates from outside the tier decide their position unless something inside
        // decided it first.
        let mut outside = candidates.take(r);
        outside.retain(|i| {
            let vr = part.external_value(i as usize).unwrap_or(ValueRemoteness::DRAW);
            part.cells.claim(i as usize, codes.code(vr))
        });
        let inside = claimed.take(r);
        // The blocks both levels were copied from are taken again by this phase's pushes.
        claimed.adopt(candidates);
        if inside.is_empty() && outside.is_empty() {
            return Ok(());
        }
        let first = part.first;
        let step = Step::at(codes, r, ties);
        let next = step.claim.remoteness_or_zero();
        let plan = parts.plan;
        let mut posted = Ok(());
        // The two lists are disjoint (a candidate claimed here was undecided). A slice at a
        // time, so that what a slice decides goes into the queues before the next.
        for mut level in [inside, outside] {
            level.sort();
            level.slices(SLICE, |slice| {
                let cells = &parts.cells;
                let results: Vec<Decided> =
                    slice.par_map_chunks(CHUNK, Worker::default, |w, e, len| {
                        let Worker { scratch, parents, located, cache, seed_scratch, entries } = w;
                        let mut out: Decided = (Vec::new(), Vec::new(), Vec::new());
                        let Some(own) = cells[k].as_ref() else { return out };
                        // What a child decided as `child` does to its parents.
                        let mut update = |child: Value, parents: &[u64]| {
                            for &j in parents {
                                let (p, local) = plan.of(j);
                                let Some(target) = cells.get(p).and_then(Option::as_ref) else {
                                    if child != Value::Draw {
                                        let m =
                                            (local as u32) << 1 | u32::from(child == Value::Win);
                                        out.2.push((p as u32, m));
                                    }
                                    continue;
                                };
                                // A win's parent is counted before it is updated, in a tier
                                // initialised from its children.
                                if let Some(s) = seeding.filter(|_| child == Value::Win) {
                                    let start = s.start(target, codes);
                                    if let Err(e) = self.touch(&start, s.kernel, j, seed_scratch) {
                                        s.fail(e);
                                    }
                                }
                                match target.propagate(codes, &step, local as usize, child) {
                                    Some(l) if l == next => out.0.push(j),
                                    Some(l) => out.1.push((l, j)),
                                    None => {}
                                }
                            }
                        };
                        // Each entry's parents are located, and their cells asked for, before the
                        // entry before it updates them: by then most of those cells have arrived.
                        // The entries' own cells, far apart in a large tier, are asked for
                        // [`OWN_AHEAD`] entries ahead.
                        entries.clear();
                        entries.extend(e);
                        let mut waiting: Option<Value> = None;
                        parents.clear();
                        for (e, c) in entries.iter().map(|&c| Some(c)).chain([None]).enumerate() {
                            if let Some(&a) = entries.get(e + OWN_AHEAD) {
                                own.cells.prefetch(a as usize);
                            }
                            let ahead = match c {
                                Some(c) => {
                                    let s = own.cells.load(c as usize);
                                    let Some(&vr) = step.table.get(usize::from(s & !DECIDED))
                                    else {
                                        continue;
                                    };
                                    self.parents(first + c, reverse, scratch, located, cache);
                                    for &j in located.iter() {
                                        let (p, local) = plan.of(j);
                                        if let Some(target) = cells.get(p).and_then(Option::as_ref)
                                        {
                                            target.prefetch(local as usize, vr.value());
                                        }
                                    }
                                    Some(vr.value())
                                }
                                None => None,
                            };
                            if let Some(child) = waiting {
                                update(child, parents);
                            }
                            std::mem::swap(parents, located);
                            waiting = ahead;
                        }
                        progress.advance(len as u64);
                        out
                    });
                for (now, later, mail) in results {
                    for (l, j) in now.into_iter().map(|j| (next, j)).chain(later) {
                        let (p, local) = plan.of(j);
                        if let Some(q) = parts.queues[p].as_mut() {
                            q.phase(ties).0.push(l, local);
                        }
                    }
                    for (p, m) in mail {
                        parts.mail[p as usize].send(r as u16, m);
                    }
                }
                if posted.is_ok() {
                    posted = parts.post();
                }
            });
            if let Some(q) = parts.queues[k].as_mut() {
                q.phase(ties).0.recycle(level);
            }
        }
        posted
    }
}

/// Applies part `k`'s mail, level by level, queueing what it decides.
fn deliver(parts: &mut Parts<'_>, k: usize, ties: bool, codes: &Codes) -> Result<(), SolveError> {
    for (level, batch) in parts.mail[k].take() {
        let messages = parts.open(batch)?;
        let (Some(part), Some(queues)) = (&parts.cells[k], &mut parts.queues[k]) else {
            return Ok(());
        };
        let step = Step::at(codes, usize::from(level), ties);
        let decided: Vec<Vec<(u16, u64)>> = messages
            .par_chunks(CHUNK)
            .map(|run| {
                run.iter()
                    .filter_map(|&m| {
                        let child = match (m & 1 == 1, ties) {
                            (true, _) => Value::Win,
                            (false, true) => Value::Tie,
                            (false, false) => Value::Lose,
                        };
                        let i = m >> 1;
                        part.propagate(codes, &step, i as usize, child).map(|l| (l, u64::from(i)))
                    })
                    .collect()
            })
            .collect();
        let claimed = queues.phase(ties).0;
        for (l, i) in decided.into_iter().flatten() {
            claimed.push(l, i);
        }
    }
    Ok(())
}
