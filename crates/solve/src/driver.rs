//! The solve driver: discover or take the tiers, then tier by tier from the lowest, each read
//! back from the sink or solved by the retrograde engine and handed over.

use std::sync::Arc;

use perfectplay_core::{Game, GameExt, PositionSpace, Tier};

use crate::analysis::TierCounts;
use crate::*;

/// Options for a solve.
#[derive(Clone, Debug)]
pub struct SolveOptions {
    /// Reduce positions by the game's symmetries (solve canonical positions only).
    pub canonicalize: bool,
    /// Bytes the solve may hold (tiered games): when the sink keeps the tiers, only the child
    /// tiers of the tier in progress stay in memory (others are dropped and read back from the
    /// sink when a later tier needs them, and tiers an earlier solve finished are not read at all
    /// unless needed), so the returned solution holds only the last tiers; a tier that cannot fit
    /// whole is solved in parts where the sink gives a [`crate::PartStore`] and the game has
    /// undo-moves, else refused with [`SolveError::OverMemoryLimit`] before any of its work is
    /// done. Held tiers that do not fit whole beside the tier in progress are compressed in memory
    /// first ([`TierValues::Packed`], the earliest held first), which changes no value.
    pub memory_limit: Option<u64>,
    /// Solve only these tiers (tiered games with a sink that keeps tiers): their child tiers must
    /// have been finished by an earlier solve, and are read back from the sink. For solving a
    /// game's tiers in separate processes, or timing one tier.
    pub only: Option<Vec<Tier>>,
    /// Return every tier in the solution, for an analysis after the solve (the default). Without
    /// it, a tiered solve whose sink keeps the tiers holds only what the tiers after it need, as
    /// under a memory limit: a tier an earlier solve finished is read back only when a tier to
    /// solve needs it, and a tier is dropped once no later tier lists it as a child (solved or
    /// found in the files). A variant whose tiers are all in its tier files then reads none of
    /// them.
    pub hold_all: bool,
    /// The ranks a tier in parts is shared over (an MPI run's workers, each running this solve
    /// of the same tiers with `only`): each solves the parts it owns, and the first rank gathers
    /// the tier's values and hands them to its sink; the others hand over nothing. A tier shared
    /// is solved in parts even where it would fit whole. `None`: one process.
    pub ranks: Option<std::sync::Arc<dyn Ranks>>,
    /// Tiers of at least this many indices are shared over the ranks of an MPI run in parts even
    /// where they fit whole (those that outgrow `memory_limit` always are): a large tier then
    /// takes every machine instead of one ([`shared_over_ranks`]).
    pub share_above: Option<u64>,
    /// Count the analysis tier by tier as each is solved, into [`Solution::analysis`], where each
    /// tier gives its counts alone (sparse games, unless reduced by symmetries under which the
    /// start is not its own only image; [`crate::analyze`] otherwise). Nothing is then held for
    /// an analysis afterwards: `hold_all` is not needed for one, and a solve whose sink keeps the
    /// tiers holds only what the tiers after each still need.
    pub count: bool,
    /// Initialise each tier from the decided positions of its child tiers, leaving the positions
    /// no decided child reaches uninitialised (draws unless the retrograde rounds reach them):
    /// `Some(true)` for every tier that can be (a dense tier of a game with a kernel and
    /// undo-moves, solved whole by one process), `Some(false)` for none, `None` (the default)
    /// where the child tiers' decided positions are few beside the tier's indices. The values
    /// are the same either way.
    pub seeded: Option<bool>,
    /// Solve only the positions the start reaches ([`crate::reach_tiered`], searched before the
    /// solve; a tiered game reduced by its symmetries, one process; the marks' bytes count
    /// against `memory_limit`): the others are placeholders
    /// that nothing initialises, and their values in the solution are draws that nobody should
    /// read. The tiers handed to the sink say which are reached ([`SolvedTier::reached`]), so
    /// that a database stores the others as absent, never as a wrong value. Every position reached
    /// has its whole solve's value, since all its children are reached too. Where the solve
    /// holds the only reference, each tier's marks are freed once the tier is solved or found
    /// finished ([`crate::Reached::release`]): a caller that needs them after the solve keeps a
    /// reference, or has them kept elsewhere (a database's tier files keep them).
    pub reached: Option<Arc<crate::Reached>>,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            canonicalize: true,
            memory_limit: None,
            only: None,
            hold_all: true,
            ranks: None,
            share_above: None,
            count: false,
            seeded: None,
            reached: None,
        }
    }
}

/// Solves a game strongly: every position reachable from the start (sparse games), every index
/// (dense games) or every canonical index of every tier (tiered games), tier by tier from the
/// lowest, each tier by the retrograde engine. Each solved tier is handed to `sink` if one is
/// given; a tier the sink kept from an earlier, interrupted solve is read back instead of solved.
pub fn solve<G: Game + ?Sized>(
    game: &G,
    mut options: SolveOptions,
    progress: &dyn Progress,
    mut sink: Option<&mut dyn ResultSink>,
) -> Result<Solution, SolveError> {
    let canonicalize = options.canonicalize && game.symmetry_count() > 1;
    let mut solution = Solution::new(canonicalize);
    let one_tier = matches!(game.space(), PositionSpace::Dense { .. });
    let tiered = game.space().is_tiered();
    let sparse = matches!(game.space(), PositionSpace::Sparse(_));
    let shared_ranks = options.ranks.as_deref().is_some_and(|r| r.size() > 1);
    if options.reached.is_some() && !(tiered && canonicalize && !shared_ranks) {
        return Err(SolveError::Unsupported {
            what: "a solve of the reached positions only outside one process's canonical solve \
                   of a tiered game"
                .into(),
        });
    }
    let mut counts = (options.count && sparse)
        .then(|| TierCounts::new(game, canonicalize, true))
        .filter(TierCounts::alone);
    // Under a memory limit, for chosen tiers, or without holding every tier, with a sink that
    // keeps tiers, the solve holds only what the tiers in progress need ("lean").
    let keeps = sink.as_deref().is_some_and(ResultSink::keeps_tiers);
    if options.only.is_some() && !(tiered && keeps) {
        return Err(SolveError::Sink(
            "solving chosen tiers needs a tiered game and tier files".into(),
        ));
    }
    // The marks of the positions reached not yet solved are held: the rest of a limit is the
    // tiers'.
    let mut reached = options.reached.take();
    let marks = |r: &Option<Arc<crate::Reached>>| r.as_ref().map_or(0, |r| r.heap_bytes());
    let memory_limit = options.memory_limit.map(|l| l.saturating_sub(marks(&reached)));
    let bounded = memory_limit.is_some() || options.only.is_some();
    let hold_all = options.hold_all && counts.is_none();
    let lean = (tiered || sparse) && (bounded || !hold_all) && keeps;
    // A lean sparse solve puts discovered tiers aside in the sink's store until their turn.
    let aside = sink.as_deref_mut().filter(|_| lean && sparse).and_then(|s| s.parts());
    let waiting = memory_limit.map_or(WAITING_HELD, |l| WAITING_HELD.min(l as usize / 4));
    let spaces = tier_spaces(game, canonicalize, progress, aside.map(|s| (s, waiting)))?;
    let chosen = |t: &Tier| options.only.as_ref().is_none_or(|only| only.contains(t));
    let total: u64 = spaces.iter().filter(|w| chosen(&w.tier)).map(|w| w.len).sum();
    let (mut done, mut solved_here) = (0u64, 0u64);
    let overall = std::time::Instant::now();
    let tiers = spaces.len();
    let parents = LastParents::new(tiered || sparse, spaces.iter());
    // Under a memory limit, the buffer a tier solved whole leaves for the next (without one, the
    // allocator keeps what is freed for the next tier to take).
    let spare = options.memory_limit.map(|_| retrograde::Spare::default());
    for (k, Waiting { tier, mut space, len: size, children }) in spaces.into_iter().enumerate() {
        let name = game.tier_name(tier);
        if !chosen(&tier) {
            continue;
        }
        if progress.stopped() {
            return Err(SolveError::Stopped);
        }
        let memory_limit = options.memory_limit.map(|l| l.saturating_sub(marks(&reached)));
        if let (true, Some(sink)) = (lean, sink.as_deref_mut()) {
            if sink.kept(tier).map_err(SolveError::Sink)? {
                progress.note(&format!("tier {name}: finished by an earlier solve"));
                release(&mut reached, tier);
                done += size;
                if space.is_none() {
                    // Its positions put aside are not needed.
                    sink.parts().map_or(Ok(()), |s| s.clear(tier)).map_err(SolveError::Sink)?;
                }
                if let Some(counts) = counts.as_mut() {
                    // Counted from its file, then held only as long as a later tier needs it.
                    solution.push(reload(game, sink, tier, &name)?);
                    let back = solution.tier(tier).expect("just held");
                    counts.add(&solution, back, count_budget(back))?;
                }
                continue;
            }
            if space.is_none() {
                let store = sink.parts().ok_or_else(|| SolveError::Inconsistent {
                    what: format!("tier {name}: its positions were put aside, but not kept"),
                })?;
                let back = SortedPositions::take_back(tier, store).map_err(SolveError::Sink)?;
                space = Some(TierSpace::Sorted(back));
            }
            // Under a bound, only the child tiers stay; without one, every tier a tier still to
            // solve needs.
            let needed = |t: Tier| !bounded && parents.needed_by(t, k);
            let fit = match (memory_limit, &space) {
                (Some(limit), Some(s)) => Some((retrograde::bytes_needed(game, tier, s), limit)),
                _ => None,
            };
            // The spare is held while the child tiers are read back.
            if let (Some(spare), Some((own, _))) = (&spare, fit) {
                spare.within(own);
            }
            hold_children(game, tier, &children, &mut solution, sink, needed, fit, progress)?;
        } else if let Some(sink) = sink.as_deref_mut() {
            if let Some(kept) = sink.resume(tier).map_err(SolveError::Sink)? {
                progress.note(&format!("tier {name}: finished by an earlier solve, read back"));
                release(&mut reached, tier);
                done += size;
                solution.push(kept);
                if let Some(counts) = counts.as_mut() {
                    let back = solution.tier(tier).expect("just held");
                    counts.add(&solution, back, count_budget(back))?;
                }
                continue;
            }
        }
        // Only a lean solve puts positions aside, and it took them back above.
        let space = space.ok_or_else(|| SolveError::Inconsistent {
            what: format!("tier {name}: its positions were put aside outside a lean solve"),
        })?;
        let mut budget = None;
        // Whether a tier that needs it can be solved in parts.
        let parted =
            sink.as_deref_mut().is_some_and(|s| s.parts().is_some()) && game.has_undo_moves();
        if let Some(limit) = memory_limit {
            if keeps && !lean {
                let held: Vec<Tier> = solution.tiers.iter().map(|t| t.tier).collect();
                for t in held {
                    if !parents.needed_by(t, k) {
                        solution.evict(t);
                    }
                }
            }
            let own = retrograde::bytes_needed(game, tier, &space);
            if let Some(spare) = &spare {
                spare.within(own);
            }
            let needed = solution.heap_bytes() as u64 + own;
            if needed > limit && !solution.fit(own, limit, &name, progress) {
                let needed = solution.heap_bytes() as u64 + own;
                match retrograde::parts_budget(game, &space, limit, needed - own) {
                    Some(b) if parted => {
                        progress.note(&format!(
                            "tier {name}: needs about {:.1} MiB whole; solved in parts within \
                             {:.1} MiB",
                            needed as f64 / f64::from(1 << 20),
                            b as f64 / f64::from(1 << 20)
                        ));
                        budget = Some(b);
                    }
                    _ => {
                        let (needed, limit) =
                            (needed + marks(&reached), options.memory_limit.unwrap_or(limit));
                        return Err(SolveError::OverMemoryLimit { tier: name, needed, limit });
                    }
                }
            }
        }
        // A tier shared over ranks is solved in parts by all of them, even where it fits whole.
        let shared = options.ranks.as_deref().filter(|r| r.size() > 1);
        if let (Some(_), None) = (shared, budget) {
            let limit = memory_limit.unwrap_or(u64::MAX);
            let held = solution.heap_bytes() as u64;
            budget = retrograde::parts_budget(game, &space, limit, held).filter(|_| parted);
            if budget.is_none() {
                return Err(SolveError::Unsupported {
                    what: format!("tier {name} shared over ranks: it cannot be solved in parts"),
                });
            }
        }
        let ranks: &dyn Ranks = shared.map_or(&Alone, |r| r);
        // A tier in parts takes no spare: its parts' budget is all it may hold.
        if let (Some(spare), Some(_)) = (&spare, budget) {
            spare.clear();
        }
        // A tier solved whole may widen its cells in place within what the limit leaves it.
        let widen_room = match (memory_limit, budget) {
            (None, _) => u64::MAX,
            (Some(_), Some(_)) => 0,
            (Some(limit), None) => limit.saturating_sub(
                solution.heap_bytes() as u64 + retrograde::bytes_needed(game, tier, &space),
            ),
        };
        let started = std::time::Instant::now();
        let solved = solve_tier(
            game,
            tier,
            &space,
            &solution,
            TierRun {
                canonicalize,
                one_tier,
                budget,
                ranks,
                widen_room,
                seeded: options.seeded,
                reached: reached.as_deref(),
                spare: spare.as_ref(),
            },
            sink.as_deref_mut().and_then(|s| s.parts()),
            progress,
        )?;
        // Another rank gathered the values, and hands them over.
        let Some((values, care)) = solved else {
            done += size;
            continue;
        };
        let bits = reached.as_ref().and_then(|r| r.tier_bits(tier));
        // Counted now, while its values and marks are here, where the sink keeps the counts.
        let counting = std::time::Instant::now();
        let tally = match (&reached, sink.as_deref()) {
            (Some(r), Some(s))
                if s.keeps_counts() && crate::tiered::countable(r, Some(tier)).is_ok() =>
            {
                Some(crate::count_tier(game, r, tier, &values, &NoProgress)?)
            }
            _ => None,
        };
        let counted = match tally {
            Some(_) => format!(" (counted in {:.1} s)", counting.elapsed().as_secs_f64()),
            None => String::new(),
        };
        release(&mut reached, tier);
        let mut solved = SolvedTier { tier, space, values, care, reached: bits };
        if let Some(sink) = sink.as_deref_mut() {
            if let Some(tally) = &tally {
                sink.tier_counted(tier, tally).map_err(SolveError::Sink)?;
            }
            sink.tier_solved(&solved).map_err(SolveError::Sink)?;
            // A tier solved in parts kept them until now, for a solve stopped before this.
            if let (Some(_), Some(store)) = (budget, sink.parts()) {
                store.clear(tier).map_err(SolveError::Sink)?;
            }
        }
        (solved.care, solved.reached) = (None, None);
        done += size;
        solved_here += size;
        if tiers > 1 {
            // Time left, at this solve's rate so far per index.
            let elapsed = overall.elapsed().as_secs_f64();
            let left = elapsed / solved_here.max(1) as f64 * (total - done) as f64;
            progress.note(&format!(
                "tier {name}: {size} indices solved in {:.1} s{counted}; {:.1}% of {total} done, \
                 about {left:.0} s left",
                started.elapsed().as_secs_f64(),
                100.0 * done as f64 / total.max(1) as f64
            ));
        }
        solution.push(solved);
        if lean {
            // Tiers no later tier needs go before this one is counted.
            let finished: Vec<Tier> = solution
                .tiers
                .iter()
                .map(|t| t.tier)
                .filter(|&t| t != tier && !parents.needed_by(t, k + 1))
                .collect();
            for t in finished {
                solution.evict(t);
            }
        }
        if let Some(counts) = counts.as_mut() {
            let solved = solution.tier(tier).expect("just held");
            counts.add(&solution, solved, count_budget(solved))?;
        }
    }
    solution.analysis = counts.map(TierCounts::finish);
    solution.indices = total;
    // Child tiers held in part are the sink's to give: the solution holds only whole tiers.
    let cut: Vec<Tier> =
        solution.tiers.iter().filter(|t| !solution.covers(t.tier, None)).map(|t| t.tier).collect();
    for t in cut {
        solution.evict(t);
    }
    Ok(solution)
}

/// Frees tier `t`'s marks where the solve holds the only reference to them
/// ([`SolveOptions::reached`]).
fn release(reached: &mut Option<Arc<crate::Reached>>, t: Tier) {
    if let Some(r) = reached.as_mut().and_then(Arc::get_mut) {
        r.release(t);
    }
}

/// Counting a solved tier's classes ([`TierCounts::add`]) may hold about the tier's own bytes
/// more, and at least this many.
const COUNT_BUDGET_MIN: usize = 64 << 20;

/// The bytes [`TierCounts::add`] may hold more to count `tier`.
fn count_budget(tier: &SolvedTier) -> usize {
    tier.heap_bytes().max(COUNT_BUDGET_MIN)
}

/// The bytes of discovered tiers a lean sparse solve holds while they wait for their turn (at most
/// a quarter of a memory limit); past them, those discovered first (solved last) are put aside in
/// the sink's store.
const WAITING_HELD: usize = 256 << 20;

/// A tier to solve, before its turn.
struct Waiting {
    tier: Tier,
    /// Its positions: `None` where put aside in the sink's store.
    space: Option<TierSpace>,
    /// Its number of positions (indices).
    len: u64,
    /// The tiers its moves lead to, other than itself (as the game declares them, or as
    /// discovery found them).
    children: Vec<Tier>,
}

/// The tiers to solve, lowest first, each with its space: a dense game's one tier, a tiered
/// game's declared tiers, or a sparse game's tiers as discovered from the start (with `aside`, a
/// store and bytes, those held past the bytes put aside there until their turn).
fn tier_spaces<G: Game + ?Sized>(
    game: &G,
    canonicalize: bool,
    progress: &dyn Progress,
    mut aside: Option<(&mut dyn PartStore, usize)>,
) -> Result<Vec<Waiting>, SolveError> {
    Ok(match game.space() {
        PositionSpace::Dense { size } => {
            if game.tier(game.start()) != Tier(0) {
                return Err(SolveError::DenseWithTiers);
            }
            let space = Some(TierSpace::Dense { size });
            vec![Waiting { tier: Tier(0), space, len: size, children: Vec::new() }]
        }
        PositionSpace::Tiered(_) => {
            if !canonicalize && game.symmetry_count() > 1 {
                return Err(SolveError::NeedsSymmetry { game: game.id().to_string() });
            }
            game.tiers()
                .into_iter()
                .map(|t| {
                    let size = game.tier_size(t);
                    let space = Some(TierSpace::Dense { size });
                    Waiting { tier: t, space, len: size, children: game.child_tiers(t) }
                })
                .collect()
        }
        PositionSpace::Sparse(_) => {
            let mut tiers: Vec<Waiting> = Vec::new();
            let (mut held, mut first_held, mut put) = (0usize, 0usize, (0usize, 0usize));
            discover::discover_tiers(game, canonicalize, progress, |tier, s, children| {
                held += s.heap_bytes();
                let len = s.len() as u64;
                tiers.push(Waiting { tier, space: Some(TierSpace::Sorted(s)), len, children });
                while let Some((store, _)) = aside.as_mut().filter(|(_, most)| held > *most) {
                    let w = &mut tiers[first_held];
                    first_held += 1;
                    if let Some(TierSpace::Sorted(s)) = w.space.take() {
                        held -= s.heap_bytes();
                        put = (put.0 + 1, put.1 + s.heap_bytes());
                        s.put_aside(w.tier, &mut **store).map_err(SolveError::Sink)?;
                    }
                }
                Ok::<(), SolveError>(())
            })?;
            if put.0 > 0 {
                progress.note(&format!(
                    "discover: {} tiers ({} MiB of positions) put aside until their turn",
                    put.0,
                    put.1 >> 20
                ));
            }
            tiers.reverse();
            tiers
        }
    })
}

/// A tier the sink kept, read back whole.
fn reload<G: Game + ?Sized>(
    game: &G,
    sink: &mut dyn ResultSink,
    tier: Tier,
    needed_by: &str,
) -> Result<SolvedTier, SolveError> {
    sink.reload(tier).map_err(SolveError::Sink)?.ok_or_else(|| {
        SolveError::Sink(
            format!(
                "tier {} is needed by tier {needed_by} but could not be read back; solve again \
                 to redo it",
                game.tier_name(tier)
            )
            .into(),
        )
    })
}

/// Whether a solved tier is still a child of a tier from a place in the order on (where the
/// children are known: declared by a tiered game or found by discovery; otherwise they may lie in
/// any lower tier, so nothing is dropped): per tier, the last place in the order of a tier that
/// lists it as a child.
struct LastParents {
    known: bool,
    last: Vec<Option<usize>>,
}

impl LastParents {
    fn new<'w>(known: bool, order: impl Iterator<Item = &'w Waiting>) -> LastParents {
        let mut last: Vec<Option<usize>> = Vec::new();
        if known {
            for (k, w) in order.enumerate() {
                for c in &w.children {
                    let c = c.0 as usize;
                    if last.len() <= c {
                        last.resize(c + 1, None);
                    }
                    last[c] = Some(k);
                }
            }
        }
        LastParents { known, last }
    }

    fn needed_by(&self, tier: Tier, from: usize) -> bool {
        !self.known || self.last.get(tier.0 as usize).copied().flatten().is_some_and(|k| k >= from)
    }
}

/// A lean solve's holdings before `tier`: held tiers that are not its children are dropped unless
/// `needed` keeps them; its child tiers are read back from the sink where not held (under a
/// memory limit, only the window of a child tier the tier's moves reach, packing held tiers to fit
/// `fit`: the tier's own bytes and the limit).
#[allow(clippy::too_many_arguments)]
fn hold_children<G: Game + ?Sized>(
    game: &G,
    tier: Tier,
    children: &[Tier],
    solution: &mut Solution,
    sink: &mut dyn ResultSink,
    needed: impl Fn(Tier) -> bool,
    fit: Option<(u64, u64)>,
    progress: &dyn Progress,
) -> Result<(), SolveError> {
    let name = game.tier_name(tier);
    let held: Vec<Tier> = solution.tiers.iter().map(|t| t.tier).collect();
    for t in held {
        if !children.contains(&t) && !needed(t) {
            solution.evict(t);
        }
    }
    for &c in children {
        // Under a memory limit, only the part of a child tier this tier's moves reach.
        let window = fit.and_then(|_| game.child_window(tier, c));
        if solution.tier(c).is_some() && !solution.covers(c, window.as_ref()) {
            solution.evict(c);
        }
        if solution.tier(c).is_none() {
            solution.push(reload(game, sink, c, &name)?);
            if let Some(w) = window.clone() {
                solution.cut(c, w);
            }
            if let Some((own, limit)) = fit {
                // Read back whole, it may need packing before the next is read.
                solution.fit(own, limit, &name, progress);
            }
        } else if let Some(w) = window {
            solution.cut(c, w);
        }
    }
    Ok(())
}

/// How one tier is solved: with symmetries, as a whole dense game, in parts within a budget,
/// over ranks.
struct TierRun<'r> {
    canonicalize: bool,
    one_tier: bool,
    budget: Option<u64>,
    ranks: &'r dyn Ranks,
    /// The bytes one-byte cells may grow by to be widened in place (see
    /// [`retrograde::TierProblem::widen_room`]).
    widen_room: u64,
    /// [`SolveOptions::seeded`].
    seeded: Option<bool>,
    /// [`SolveOptions::reached`].
    reached: Option<&'r crate::Reached>,
    /// [`retrograde::TierProblem::spare`].
    spare: Option<&'r retrograde::Spare>,
}

/// Whether an MPI run shares a tier over all its workers, in parts: a tier of a tiered game with
/// undo-moves that outgrows the memory limit on its own (before any child tier is held), or has
/// at least [`SolveOptions::share_above`] indices.
pub fn shared_over_ranks<G: Game + ?Sized>(game: &G, tier: Tier, options: &SolveOptions) -> bool {
    let space = TierSpace::Dense { size: game.tier_size(tier) };
    let outgrows =
        options.memory_limit.is_some_and(|l| retrograde::bytes_needed(game, tier, &space) > l);
    let large = options.share_above.is_some_and(|a| space.len() >= a);
    game.space().is_tiered() && game.has_undo_moves() && (outgrows || large)
}

/// One tier solved by the retrograde engine, its child tiers' values taken from `solution`.
fn solve_tier<G: Game + ?Sized>(
    game: &G,
    tier: Tier,
    space: &TierSpace,
    solution: &Solution,
    run: TierRun<'_>,
    store: Option<&mut dyn PartStore>,
    progress: &dyn Progress,
) -> Result<Option<retrograde::Solved>, SolveError> {
    let TierRun { canonicalize, one_tier, budget, ranks, widen_room, seeded, reached, spare } = run;
    // A tiered game declares its child tiers; a sparse game's are every lower tier held.
    let children = match game.space().tier_index() {
        Some(_) => game.child_tiers(tier),
        None => solution.tiers.iter().map(|t| t.tier).filter(|&t| t != tier).collect(),
    };
    let child_values: Vec<(Tier, &TierSpace, u64, &TierValues)> = children
        .into_iter()
        .filter_map(|c| solution.held(c).map(|(first, s)| (c, &s.space, first, &s.values)))
        .collect();
    let kernel = game.kernel().filter(|_| game.space().is_tiered() && canonicalize);
    // One-byte cells hold 127 codes: children that already use nearly as many make a one-byte
    // attempt unlikely to finish.
    let start_wide = game.child_tiers(tier).iter().any(|&c| {
        solution.tier(c).is_some_and(|t| match &t.values {
            TierValues::Narrow { dictionary, .. } => dictionary.len() > 100,
            TierValues::Packed(p) => p.dictionary.len() > 100,
            TierValues::Wide(_) => true,
        })
    });
    let problem = retrograde::TierProblem {
        game,
        tier,
        space,
        canonicalize,
        one_tier,
        child_values: &child_values,
        kernel,
        start_wide,
        budget,
        widen_room,
        seeded,
        reached: reached.and_then(|r| r.tier_marks(tier)),
        spare,
    };
    problem.solve(store, ranks, progress)
}
