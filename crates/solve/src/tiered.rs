//! Analysis of a tiered game ([`PositionSpace::Tiered`]): the positions reachable from the start,
//! found over the tiers' dense indices, counted per value-remoteness for the whole game and per
//! tier (003 Table B.5's columns: reachable, canonical, highest win and lose remoteness).
//!
//! Reachability is searched over canonical indices, two bits per index: a class reached "as is"
//! (a member in the canonical form's orientation) and "exchanged" (a member of its exchange,
//! [`GameExt::exchange`]). The other symmetries keep the reachable positions to themselves because
//! the start is its own image under them, so a class's reachable members are exactly those of the
//! sides reached: a child of the exchanged side is the exchange of a child of the canonical form.
//! The search goes tier by tier from the start's down (moves never climb), to a fixed point within
//! each tier.
//!
//! A game of two symmetries and no exchange whose start is not its own image (Fox and Geese with
//! 5, 8, 10, 12 or 14 geese) uses the second bit for the other orientation instead: "mirrored", a
//! member that is the canonical form's image under the symmetry that is not the identity. A child
//! of the mirrored member is the mirror of the child of the canonical form, so the same rule
//! carries a side to the children, and a class's reachable members are again those of its sides.
//!
//! [`PositionSpace::Tiered`]: perfectplay_core::PositionSpace::Tiered

use std::borrow::Cow;

use perfectplay_core::{
    Game, GameExt, KernelCache, Position, Tier, TierKernel, Value, ValueRemoteness,
};
use rayon::prelude::*;

use crate::counts::Analysis;
use crate::progress::Progress;
use crate::{Solution, SolveError, SolvedTier, TierValues};

mod reach;
pub(crate) use reach::{any_marked, count_marked, is_marked};
pub use reach::{marks_words, reach_tiered, reach_tiered_classes, reach_tiered_one_pass, Reached};
use reach::{unnamed, Located, Sides, SIDES, WORDS_PER_TASK};

/// One tier's line of a tiered analysis. Reachable positions are counted in the tier they lie in
/// (so both of a pair of exchanged tiers have lines); canonical classes in their canonical tier,
/// or, where the exchange does not merge classes ([`perfectplay_core::Exchange::merges_classes`]),
/// each side of a class in its own tier.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TierReport {
    /// The tier.
    pub tier: Tier,
    /// Its name ([`GameExt::tier_name`]).
    pub name: String,
    /// Reachable positions in the tier.
    pub reachable: u64,
    /// Canonical reachable positions (classes under all the game's symmetries) in the tier.
    pub canonical: u64,
    /// The highest remoteness of a reachable win in the tier.
    pub max_win: Option<u16>,
    /// The highest remoteness of a reachable loss in the tier.
    pub max_lose: Option<u16>,
}
/// Counts a solved tiered game's reachable positions: the whole game's value-remoteness rows and
/// one line per tier.
pub fn analyze_tiered<G: Game + ?Sized>(
    game: &G,
    solution: &Solution,
    progress: &dyn Progress,
) -> Result<(Analysis, Vec<TierReport>), SolveError> {
    let lookup = |t: Tier| -> Result<Cow<'_, SolvedTier>, SolveError> {
        solution.tier(t).map(Cow::Borrowed).ok_or_else(|| SolveError::Inconsistent {
            what: format!("tier {} is not in the solution", game.tier_name(t)),
        })
    };
    analyze_tiered_from(game, &lookup, progress)
}

/// [`analyze_tiered`] with each tier's values read when its count starts, one tier at a time
/// (from a database too large to load whole): the search for reachable positions needs no
/// values, only two bits per index.
pub fn analyze_tiered_from<'s, G: Game + ?Sized>(
    game: &G,
    tier_values: &dyn Fn(Tier) -> Result<Cow<'s, SolvedTier>, SolveError>,
    progress: &dyn Progress,
) -> Result<(Analysis, Vec<TierReport>), SolveError> {
    let reached = reach_tiered(game, progress)?;
    count_reached(game, &reached, tier_values, progress)
}

/// A share of a tiered analysis: value-remoteness rows and tier lines ([`count_tier`]), summed
/// by [`add_tally`].
pub type Tally = (Analysis, Vec<TierReport>);

/// Counts the reachable positions found by [`reach_tiered`] per value-remoteness for the whole
/// game and per tier, reading each tier's values when its count starts.
pub fn count_reached<'s, G: Game + ?Sized>(
    game: &G,
    reached: &Reached,
    tier_values: &dyn Fn(Tier) -> Result<Cow<'s, SolvedTier>, SolveError>,
    progress: &dyn Progress,
) -> Result<Tally, SolveError> {
    countable(reached, None)?;
    let total: u64 = reached.marks.tiers.iter().map(|&t| game.tier_size(t)).sum();
    progress.begin("count", Some(total));
    let mut whole = Tally::default();
    for &t in &reached.marks.tiers {
        let solved = tier_values(t)?;
        add_tally(&mut whole, count_tier(game, reached, t, &solved.values, progress)?);
    }
    progress.end();
    Ok(whole)
}

/// Whether the positions `reached` holds in tier `t` (every tier, `None`) can be counted: its
/// marks complete, the members of a class told apart.
pub(crate) fn countable(reached: &Reached, t: Option<Tier>) -> Result<(), SolveError> {
    if reached.sides == Sides::ClassesOnly {
        return Err(SolveError::Unsupported {
            what: "counting the positions reached from a start that is not symmetric".into(),
        });
    }
    match t {
        None => require_complete(reached),
        Some(t) if reached.is_complete(t) => Ok(()),
        Some(_) => Err(SolveError::Unsupported {
            what: "counting a tier whose marks are not complete".into(),
        }),
    }
}

/// Adds `part` to `whole`: the rows' counts, and the lines of the same tier summed (their highest
/// remoteness the higher).
pub fn add_tally(whole: &mut Tally, part: Tally) {
    let (analysis, lines) = whole;
    for row in part.0.rows() {
        analysis.add(row.value, row.count, row.canonical_count);
    }
    // The lines are kept in tier order.
    for line in part.1 {
        match lines.binary_search_by_key(&line.tier, |l| l.tier) {
            Ok(k) => {
                let l = &mut lines[k];
                l.reachable += line.reachable;
                l.canonical += line.canonical;
                l.max_win = l.max_win.max(line.max_win);
                l.max_lose = l.max_lose.max(line.max_lose);
            }
            Err(at) => lines.insert(at, line),
        }
    }
}

/// One tier's share of [`count_reached`]: the classes whose canonical index lies in tier `t`
/// ([`reach_tiered`]'s marks, `values` the tier's), counted per value-remoteness, and their
/// members in the lines of the tiers they lie in (the exchanged members may lie in another).
/// Counted as each tier is solved, it needs no tier read back.
pub fn count_tier<G: Game + ?Sized>(
    game: &G,
    reached: &Reached,
    t: Tier,
    values: &TierValues,
    progress: &dyn Progress,
) -> Result<Tally, SolveError> {
    countable(reached, Some(t))?;
    let marks = &reached.marks;
    let k = marks.slot(t).ok_or_else(|| SolveError::Inconsistent {
        what: format!("tier {} was not searched", game.tier_name(t)),
    })?;
    // Per canonical index reached, its value, and its reachable members (the images on the
    // sides reached), each counted in its own tier.
    let merges = game.exchange_merges_classes() || game.exchange(game.start()).is_none();
    let size = game.tier_size(t);
    // Asked once, not per position: what counts a class's members.
    let kernel = game.kernel();
    let exchanged = kernel.and_then(|k| k.exchanged_tier(t));
    // One `Counts` a fold (a few per worker), not a task: its table of values is large. So
    // are the buffers ([`Located`]).
    let fold = || (Counts::default(), Located::default(), Vec::new(), Keyed::default());
    let counts = marks.bits[k]
        .par_chunks(WORDS_PER_TASK)
        .enumerate()
        .try_fold(fold, |(mut counts, mut located, mut images, mut keyed), (task, chunk)| {
            let first_word = task * WORDS_PER_TASK;
            located.load(chunk, false);
            let sized = reached.sides == Sides::Exchanged
                && kernel.is_some_and(|k| located.class_sizes(k, t, first_word, size));
            if sized {
                let by = BySizes { t, merges, exchanged, values };
                by.by_sizes(game, located.sized(first_word), &mut counts, &mut keyed)?;
                progress.advance(chunk.len() as u64 * 64 / SIDES);
                return Ok((counts, located, images, keyed));
            }
            located.list(first_word);
            located.name(game, t);
            for &(index, sides, p) in &located.found {
                let p = p.ok_or_else(|| unnamed(game, t, index))?;
                let vr = values.get(index as usize);
                let class = Class { t, p, sides, vr };
                let (members, exchanged) =
                    class_members(game, kernel, reached.sides, class, &mut counts, &mut images);
                if merges {
                    counts.value(vr, members, 1);
                    counts.canonical_in(t.0 as usize);
                } else {
                    // One class per side reached, each in its own tier.
                    counts.value(vr, members, u64::from(sides.count_ones()));
                    if sides & 1 == 1 {
                        counts.canonical_in(t.0 as usize);
                    }
                    if sides & 2 == 2 {
                        let e =
                            exchanged.unwrap_or_else(|| game.tier(game.exchange(p).unwrap_or(p)));
                        counts.canonical_in(e.0 as usize);
                    }
                }
            }
            progress.advance(chunk.len() as u64 * 64 / SIDES);
            Ok::<_, SolveError>((counts, located, images, keyed))
        })
        .map(|folded| folded.map(|(counts, ..)| counts))
        .try_reduce(Counts::default, |a, b| Ok(a.sum(b)))?;
    let mut analysis = Analysis::default();
    for (bits, &(all, canonical)) in counts.values.iter().enumerate() {
        if all > 0 || canonical > 0 {
            if let Some(vr) = ValueRemoteness::from_bits(bits as u16) {
                analysis.add_counts(vr, all, canonical);
            }
        }
    }
    let mut lines = Vec::new();
    add_lines(game, &counts, &mut lines);
    Ok((analysis, lines.into_iter().flatten().collect()))
}

/// What counts the classes of one tier by their sizes alone.
struct BySizes<'v> {
    t: Tier,
    /// Whether a class reached by both sides is one class.
    merges: bool,
    /// The tier of the exchanged members of every class of `t`, where the kernel says
    /// ([`TierKernel::exchanged_tier`]).
    exchanged: Option<Tier>,
    values: &'v TierValues,
}

impl BySizes<'_> {
    /// Counts the classes of the indices marked, given with their sides and the sizes the kernel
    /// gave ([`Located::sized`]): a position is made only for a class reached exchanged, for the
    /// tier of its exchanged members, where the kernel does not give that tier. Where the values
    /// are a byte a position, the classes are counted by (code, size, sides) in `keyed` first,
    /// then added at once, each key's many (a few keys a tier).
    fn by_sizes<G: Game + ?Sized>(
        &self,
        game: &G,
        sized: impl Iterator<Item = (u64, u64, u32)>,
        counts: &mut Counts,
        keyed: &mut Keyed,
    ) -> Result<(), SolveError> {
        let BySizes { t, exchanged, values, .. } = *self;
        let codes = match values {
            TierValues::Narrow { codes, .. } => Some(&codes[..]),
            _ => None,
        };
        for (index, sides, size) in sized {
            if size == 0 {
                return Err(unnamed(game, t, index));
            }
            let code = codes.and_then(|c| c.get(index as usize));
            if let Some(&code) = code.filter(|_| size < 64 && (sides < 2 || exchanged.is_some())) {
                keyed.add(u16::from(code) | (size as u16) << 8 | (sides as u16) << 14);
                continue;
            }
            let e = match exchanged {
                Some(e) => e,
                None if sides & 2 == 2 => {
                    let p = game.tier_position(t, index);
                    let p = p.ok_or_else(|| unnamed(game, t, index))?;
                    game.tier(game.exchange(p).unwrap_or(p))
                }
                None => t,
            };
            self.add(counts, values.get(index as usize), sides, u64::from(size), 1, e);
        }
        if let TierValues::Narrow { dictionary, .. } = values {
            for (key, n) in keyed.drain() {
                let Some(&vr) = dictionary.get(usize::from(key & 0xff)) else {
                    return Err(SolveError::Inconsistent {
                        what: format!("tier {}: a code past its values", game.tier_name(t)),
                    });
                };
                let (size, sides) = (u64::from(key >> 8 & 63), u64::from(key >> 14));
                self.add(counts, vr, sides, size, n, exchanged.unwrap_or(t));
            }
        }
        Ok(())
    }

    /// Adds `n` classes of value `vr`, each of `size` members a side, reached by `sides`; `e`:
    /// the tier of their exchanged members.
    fn add(
        &self,
        counts: &mut Counts,
        vr: ValueRemoteness,
        sides: u64,
        size: u64,
        n: u64,
        e: Tier,
    ) {
        let (t, merges) = (self.t, self.merges);
        let reached = u64::from(sides.count_ones());
        counts.value(vr, n * size * reached, n * if merges { 1 } else { reached });
        if sides & 1 == 1 {
            counts.tier_many(t.0 as usize, vr, n * size);
        }
        if merges || sides & 1 == 1 {
            counts.canonical_many(t.0 as usize, n);
        }
        if sides & 2 == 2 {
            counts.tier_many(e.0 as usize, vr, n * size);
            if !merges {
                counts.canonical_many(e.0 as usize, n);
            }
        }
    }
}

/// Classes counted by a key ([`BySizes::by_sizes`]): a count per key, and the keys counted.
struct Keyed {
    counts: Vec<u64>,
    touched: Vec<u16>,
}

impl Default for Keyed {
    fn default() -> Keyed {
        Keyed { counts: vec![0; 1 << 16], touched: Vec::new() }
    }
}

impl Keyed {
    #[inline]
    fn add(&mut self, key: u16) {
        let c = &mut self.counts[usize::from(key)];
        if *c == 0 {
            self.touched.push(key);
        }
        *c += 1;
    }

    /// Each key counted and its count, leaving none.
    fn drain(&mut self) -> impl Iterator<Item = (u16, u64)> + '_ {
        let Keyed { counts, touched } = self;
        touched.drain(..).map(|k| (k, std::mem::take(&mut counts[usize::from(k)])))
    }
}

/// A class reached: canonical position `p` at an index of tier `t`, its value, and the sides
/// it was reached by.
#[derive(Clone, Copy)]
struct Class {
    t: Tier,
    p: Position,
    sides: u64,
    vr: ValueRemoteness,
}

/// Counts the members of a class on the sides it was reached by, each in its own tier (`kernel`:
/// the game's); returns how many, and the tier of the exchanged form where it was found.
fn class_members<G: Game + ?Sized>(
    game: &G,
    kernel: Option<&dyn TierKernel>,
    sides_told: Sides,
    Class { t, p, sides, vr }: Class,
    counts: &mut Counts,
    images: &mut Vec<Position>,
) -> (u64, Option<Tier>) {
    let mut members = 0u64;
    let side_class_size = match sides_told {
        Sides::Exchanged => kernel.and_then(|k| k.side_class_size(p)),
        _ => None,
    };
    if sides_told == Sides::Mirrored {
        // The canonical form, and its mirror image where that is another
        // position: the members of the sides reached.
        images.clear();
        game.symmetry_images(p, images);
        let mirror = images.iter().copied().find(|&q| q != p);
        for (side, q) in [Some(p), mirror].into_iter().enumerate() {
            let Some(q) = q else { continue };
            if sides >> side & 1 == 1 || (mirror.is_none() && sides != 0) {
                members += 1;
                counts.tier_many(game.tier(q).0 as usize, vr, 1);
            }
        }
    } else if let Some(size) = side_class_size {
        // The class's members on each side reached, in their tiers (`p`'s is `t`).
        if sides & 1 == 1 {
            members += size;
            counts.tier_many(t.0 as usize, vr, size);
        }
        if sides & 2 == 2 {
            let e = game.tier(game.exchange(p).unwrap_or(p));
            members += size;
            counts.tier_many(e.0 as usize, vr, size);
            return (members, Some(e));
        }
    } else {
        images.clear();
        game.symmetry_images(p, images);
        images.sort_unstable();
        images.dedup();
        for &q in images.iter() {
            let on_side = sides == 3 || {
                let side = u64::from(game.canonical_exchanged(q).1);
                sides >> side & 1 == 1
            };
            if on_side {
                members += 1;
                counts.tier_many(game.tier(q).0 as usize, vr, 1);
            }
        }
    }
    (members, None)
}

/// Adds a tier's counts per tier to the report's lines (by tier number).
fn add_lines<G: Game + ?Sized>(game: &G, counts: &Counts, lines: &mut Vec<Option<TierReport>>) {
    if lines.len() < counts.reachable.len() {
        lines.resize(counts.reachable.len(), None);
    }
    for (r, line) in lines.iter_mut().enumerate().take(counts.reachable.len()) {
        let (reachable, canonical) = (counts.reachable[r], counts.canonical[r]);
        if reachable == 0 && canonical == 0 {
            continue;
        }
        let line = line.get_or_insert_with(|| TierReport {
            tier: Tier(r as u32),
            name: game.tier_name(Tier(r as u32)),
            reachable: 0,
            canonical: 0,
            max_win: None,
            max_lose: None,
        });
        line.reachable += reachable;
        line.canonical += canonical;
        line.max_win = line.max_win.max(counts.max_win[r]);
        line.max_lose = line.max_lose.max(counts.max_lose[r]);
    }
}

/// The classes reached (each canonical index once per side it was reached by, the exchanged side
/// as the exchanged position), counted by the player to move in them and their value:
/// `counts[player][value]`, [`Player::First`]'s row first, values indexed as [`Value`] orders
/// them (lose, draw, tie, win). Where the exchange merges classes, a class reached by both
/// sides is one state, counted by its canonical member's player to move; so is a class reached
/// in both orientations of a mirror. These are states up to the symmetries, as 002 counts Fox and
/// Geese's (by the side that wins them). Unlike [`count_reached`], nothing needs the members of a
/// class told apart, so a start that is not its own image under more symmetries than a mirror
/// is counted too.
///
/// [`Player::First`]: perfectplay_core::Player::First
pub fn count_classes_by_mover<'s, G: Game + ?Sized>(
    game: &G,
    reached: &Reached,
    tier_values: &dyn Fn(Tier) -> Result<Cow<'s, SolvedTier>, SolveError>,
    progress: &dyn Progress,
) -> Result<[[u64; 4]; 2], SolveError> {
    require_complete(reached)?;
    let tiers = &reached.marks.tiers;
    let total: u64 = tiers.iter().map(|&t| game.tier_size(t)).sum();
    progress.begin("count classes", Some(total));
    let merges = game.exchange_merges_classes() || reached.sides == Sides::Mirrored;
    let mut counts = [[0u64; 4]; 2];
    for (k, &t) in tiers.iter().enumerate() {
        let solved = tier_values(t)?;
        let tier_counts = reached.marks.bits[k]
            .par_chunks(WORDS_PER_TASK)
            .enumerate()
            .map_init(Located::default, |located, (task, chunk)| {
                let mut counts = [[0u64; 4]; 2];
                located.find(game, t, task * WORDS_PER_TASK, chunk, false);
                for &(index, sides, p) in &located.found {
                    let p = p.ok_or_else(|| unnamed(game, t, index))?;
                    let value = solved.values.get(index as usize).value() as usize;
                    // Where the exchange merges classes, a class is one state whichever sides
                    // reached it (as `count_reached` counts it).
                    if sides & 1 == 1 || (merges && sides != 0) {
                        counts[game.to_move(p) as usize][value] += 1;
                    }
                    if sides & 2 == 2 && !merges {
                        let e = game.exchange(p).unwrap_or(p);
                        counts[game.to_move(e) as usize][value] += 1;
                    }
                }
                progress.advance(chunk.len() as u64 * 64 / SIDES);
                Ok::<_, SolveError>(counts)
            })
            .try_reduce(|| [[0u64; 4]; 2], |a, b| Ok(add_by_mover(a, b)))?;
        counts = add_by_mover(counts, tier_counts);
    }
    progress.end();
    Ok(counts)
}

/// Indices a task of [`count_positions_by_mover`] walks.
const INDICES_PER_TASK: u64 = 1 << 16;

/// Every canonical position of a tiered game's tiers, whether the start reaches it or not (the
/// whole of what a strong solution answers), counted by the player to move and its value as
/// [`count_classes_by_mover`] counts the reached ones: `counts[player][value]`. A tier's values
/// come from `tier_values` one tier at a time; indices that name no position, or a position that
/// is not canonical, are not counted.
pub fn count_positions_by_mover<'s, G: Game + ?Sized>(
    game: &G,
    tier_values: &dyn Fn(Tier) -> Result<Cow<'s, SolvedTier>, SolveError>,
    progress: &dyn Progress,
) -> Result<[[u64; 4]; 2], SolveError> {
    let tiers = game.tiers();
    if tiers.is_empty() {
        return Err(SolveError::Unsupported { what: "counting a game without tiers".into() });
    }
    let total: u64 = tiers.iter().map(|&t| game.tier_size(t)).sum();
    progress.begin("count positions", Some(total));
    let kernel = game.kernel();
    let mut counts = [[0u64; 4]; 2];
    for t in tiers {
        let solved = tier_values(t)?;
        let size = game.tier_size(t);
        if solved.values.len() as u64 != size {
            return Err(SolveError::Inconsistent {
                what: format!(
                    "tier {}: {} values for {size} indices",
                    game.tier_name(t),
                    solved.values.len()
                ),
            });
        }
        let tier_counts = (0..size.div_ceil(INDICES_PER_TASK))
            .into_par_iter()
            .map(|task| {
                let first = task * INDICES_PER_TASK;
                let mut run = vec![None; (size - first).min(INDICES_PER_TASK) as usize];
                match kernel {
                    Some(kernel) => kernel.tier_positions(t, first, &mut run),
                    None => {
                        for (i, p) in run.iter_mut().enumerate() {
                            *p = game.tier_position(t, first + i as u64);
                        }
                    }
                }
                let mut cache = KernelCache::default();
                let mut counts = [[0u64; 4]; 2];
                for (i, p) in run.iter().enumerate() {
                    let (Some(p), index) = (*p, first + i as u64) else { continue };
                    let canonical = match kernel {
                        Some(kernel) => kernel.is_canonical_at(t, index, p, &mut cache),
                        None => game.canonical(p) == p,
                    };
                    if canonical {
                        let value = solved.values.get(index as usize).value() as usize;
                        counts[game.to_move(p) as usize][value] += 1;
                    }
                }
                progress.advance(run.len() as u64);
                counts
            })
            .reduce(|| [[0u64; 4]; 2], add_by_mover);
        counts = add_by_mover(counts, tier_counts);
    }
    progress.end();
    Ok(counts)
}

/// Counting needs every tier's marks complete: not after [`reach_tiered_one_pass`].
fn require_complete(reached: &Reached) -> Result<(), SolveError> {
    if reached.complete.iter().any(|&c| !c) {
        return Err(SolveError::Unsupported {
            what: "counting from a search through the tiers without moves inside only".into(),
        });
    }
    Ok(())
}

/// `a + b`, count by count ([`count_classes_by_mover`]).
fn add_by_mover(mut a: [[u64; 4]; 2], b: [[u64; 4]; 2]) -> [[u64; 4]; 2] {
    for (row, other) in a.iter_mut().zip(b) {
        for (c, o) in row.iter_mut().zip(other) {
            *c += o;
        }
    }
    a
}

/// Counts of one task: per value bits (all, canonical); per tier (by number) reachable, canonical
/// and the highest win and lose remoteness.
struct Counts {
    values: Vec<(u64, u64)>,
    reachable: Vec<u64>,
    canonical: Vec<u64>,
    max_win: Vec<Option<u16>>,
    max_lose: Vec<Option<u16>>,
}

impl Default for Counts {
    fn default() -> Counts {
        Counts {
            values: vec![(0, 0); 1 << 15],
            reachable: Vec::new(),
            canonical: Vec::new(),
            max_win: Vec::new(),
            max_lose: Vec::new(),
        }
    }
}

impl Counts {
    /// Makes room for tier number `t`.
    fn grow(&mut self, t: usize) {
        if self.reachable.len() <= t {
            self.reachable.resize(t + 1, 0);
            self.canonical.resize(t + 1, 0);
            self.max_win.resize(t + 1, None);
            self.max_lose.resize(t + 1, None);
        }
    }

    fn canonical_in(&mut self, t: usize) {
        self.canonical_many(t, 1);
    }

    fn canonical_many(&mut self, t: usize, n: u64) {
        self.grow(t);
        self.canonical[t] += n;
    }

    fn value(&mut self, vr: ValueRemoteness, members: u64, classes: u64) {
        let e = &mut self.values[usize::from(vr.to_bits())];
        e.0 += members;
        e.1 += classes;
    }

    /// `n` reachable positions of value `vr` in tier number `t`.
    fn tier_many(&mut self, t: usize, vr: ValueRemoteness, n: u64) {
        self.grow(t);
        self.reachable[t] += n;
        let r = vr.remoteness();
        match vr.value() {
            Value::Win => self.max_win[t] = self.max_win[t].max(r.map(|r| r.0)),
            Value::Lose => self.max_lose[t] = self.max_lose[t].max(r.map(|r| r.0)),
            _ => {}
        }
    }

    fn sum(mut self, other: Counts) -> Counts {
        for (a, b) in self.values.iter_mut().zip(other.values) {
            a.0 += b.0;
            a.1 += b.1;
        }
        self.grow(other.reachable.len().saturating_sub(1));
        for t in 0..other.reachable.len() {
            self.reachable[t] += other.reachable[t];
            self.canonical[t] += other.canonical[t];
            self.max_win[t] = self.max_win[t].max(other.max_win[t]);
            self.max_lose[t] = self.max_lose[t].max(other.max_lose[t]);
        }
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use perfectplay_core::Remoteness;

    fn line(tier: u32, reachable: u64, canonical: u64, max_win: Option<u16>) -> TierReport {
        let name = format!("t{tier}");
        TierReport { tier: Tier(tier), name, reachable, canonical, max_win, max_lose: None }
    }

    #[test]
    fn tallies_add_rows_and_the_lines_of_a_tier() {
        let (win, draw) = (
            ValueRemoteness::new(Value::Win, Remoteness(3)),
            ValueRemoteness::new(Value::Draw, Remoteness(0)),
        );
        let mut a = Analysis::default();
        a.add(win, 10, 2);
        let mut b = Analysis::default();
        b.add(win, 5, 1);
        b.add(draw, 7, 7);
        let mut whole = (a, vec![line(4, 10, 2, Some(3))]);
        add_tally(&mut whole, (b, vec![line(2, 7, 7, None), line(4, 5, 0, Some(9))]));
        let rows: Vec<_> = whole.0.rows().map(|r| (r.value, r.count, r.canonical_count)).collect();
        assert_eq!(rows, [(win, 15, 3), (draw, 7, 7)]);
        // The lines in tier order, tier 4's summed, its highest win the higher.
        assert_eq!(whole.1, [line(2, 7, 7, None), line(4, 15, 2, Some(9))]);
    }
}
