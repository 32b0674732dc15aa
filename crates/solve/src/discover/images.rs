//! Discovery of every reachable position of a game with symmetries through its canonical ones.
//! Each canonical position is held with a byte, bit `i` set where its image under symmetry `i`
//! (in [`perfectplay_core::Symmetry::symmetry_images`]' order) is reached. A move commutes with
//! the symmetries, so a child of a canonical position `p` reached as `σ_i(p)` is reached as
//! `σ_i(c)` for each child `c` of `p`; where `c`'s canonical form is `σ_h(c)`, that image is
//! `σ_i ∘ σ_h⁻¹` of the canonical form, found in a table of the group built from the images of
//! one position with no symmetry of its own. Once a tier is closed, its canonical positions are
//! unfolded into its reached positions, one of each class (the least) marked: the solve reads
//! raw children in a tier laid out as without symmetries, and the classes are counted from the
//! marks. Konane 6x6 center: 1,438,694,799 canonical positions against 2,477,148,191.

use std::collections::{HashSet, VecDeque};

use perfectplay_core::{Game, GameExt, Position, Tier};
use rayon::prelude::*;

use super::{discover_in, Mode, CHUNK, SUPER_CHUNK};
use crate::progress::Progress;
use crate::space::{sort_marked_pieces, Run, SortedPositions};
use crate::SolveError;

/// The bits of a canonical position's marks: one per symmetry.
pub(super) const MARK_BITS: u32 = 8;

/// Positions searched from the start for one with no symmetry of its own.
const SEARCHED: usize = 1 << 16;

/// How the marks of a canonical position carry over to the canonical form of a child.
#[derive(Debug)]
pub struct ImageTable {
    /// `carry[h][m]`: the marks of a child's canonical form `σ_h(c)`, from its parent's `m`.
    carry: Vec<[u8; 256]>,
    /// The start's key (`code << MARK_BITS | marks`).
    start: u64,
}

impl ImageTable {
    /// The table of a game of two to eight symmetries, from the images of a position reachable
    /// from the start with no symmetry of its own; `None` where none is found near the start, or
    /// the images do not make a group in a fixed order.
    pub fn find<G: Game + ?Sized>(game: &G) -> Option<ImageTable> {
        let n = game.symmetry_count();
        if !(2..=MARK_BITS as usize).contains(&n) {
            return None;
        }
        let images_of = |p: Position| {
            let mut images = Vec::with_capacity(n);
            game.symmetry_images(p, &mut images);
            images
        };
        let distinct = |images: &[Position]| images.iter().collect::<HashSet<_>>().len();
        let (mut queue, mut seen) = (VecDeque::from([game.start()]), HashSet::from([game.start()]));
        let mut children = Vec::new();
        let base = loop {
            let p = queue.pop_front()?;
            let images = images_of(p);
            if images.len() == n && distinct(&images) == n {
                break images;
            }
            if seen.len() < SEARCHED && game.primitive(p).is_none() {
                children.clear();
                game.children(p, &mut children);
                queue.extend(children.iter().filter(|&&c| seen.insert(c)));
            }
        };
        // `product[a][b]`: the symmetry `σ_a ∘ σ_b`, read off `σ_a(σ_b(q))` for `q` the position
        // found (each of its images names one symmetry).
        let name = |x: Position| base.iter().position(|&q| q == x);
        let mut product = [[0usize; 8]; 8];
        for b in 0..n {
            let images = images_of(base[b]);
            if images.len() != n {
                return None;
            }
            for (row, &image) in product.iter_mut().zip(images.iter().take(n)) {
                row[b] = name(image)?;
            }
        }
        let identity = (0..n).find(|&e| (0..n).all(|a| product[a][e] == a))?;
        let inverse: Vec<usize> =
            (0..n).map(|h| (0..n).find(|&b| product[h][b] == identity)).collect::<Option<_>>()?;
        let carry: Vec<[u8; 256]> = (0..n)
            .map(|h| {
                let mut row = [0u8; 256];
                for (m, out) in row.iter_mut().enumerate() {
                    for i in (0..n).filter(|i| m >> i & 1 == 1) {
                        *out |= 1 << product[i][inverse[h]];
                    }
                }
                row
            })
            .collect();
        let mut table = ImageTable { carry, start: 0 };
        // The start is reached as itself: as its canonical form's image under `σ_h⁻¹`.
        table.start = table.carried(game, game.start(), 1 << identity, &mut Vec::new())?;
        Some(table)
    }

    /// The start's key.
    pub(super) fn start(&self) -> u64 {
        self.start
    }

    /// The key (`code << MARK_BITS | marks`) of a child `c` of a canonical position with marks
    /// `reached`: `c`'s canonical form with the images of it reached through those of its parent.
    /// `None` where an image's code is too wide for a key (or for [`unfold`]'s mark).
    #[inline]
    pub(super) fn carried<G: Game + ?Sized>(
        &self,
        game: &G,
        c: Position,
        reached: u8,
        images: &mut Vec<Position>,
    ) -> Option<u64> {
        images.clear();
        game.symmetry_images(c, images);
        let (mut h, mut least, mut widest) = (0, u64::MAX, 0);
        for (i, q) in images.iter().enumerate() {
            if q.0 < least {
                (h, least) = (i, q.0);
            }
            widest |= q.0;
        }
        (widest >> (64 - MARK_BITS) == 0)
            .then(|| least << MARK_BITS | u64::from(self.carry[h][usize::from(reached)]))
    }
}

/// Discovers every position reachable from the start through the canonical ones ([`ImageTable`])
/// and hands each tier to `on_tier` as [`super::discover_tiers`] does, with a bit a position (in
/// words of 64) set at one position of each symmetry class. `Ok(false)`: a code was too wide to
/// carry marks; discovery stopped there, after the tiers handed so far.
pub fn discover_unfolded<G: Game + ?Sized, E: From<SolveError>>(
    game: &G,
    table: &ImageTable,
    progress: &dyn Progress,
    mut on_tier: impl FnMut(Tier, SortedPositions, Vec<u64>, Vec<Tier>) -> Result<(), E>,
) -> Result<bool, E> {
    discover_in(game, Mode::Images(table), "discover (images)", progress, |tier, s, m, children| {
        let (all, classes) = unfold(game, &s, &m);
        drop(s);
        on_tier(tier, all, classes, children)
    })
}

/// The reached positions of a tier from its canonical positions and their marks, and a bit a
/// position set at the least reached position of each class. The images, marked in their lowest
/// bit, are sorted in runs of [`UNFOLD_RUN`] and the runs merged once: the sets are disjoint (but
/// for an image reached under two symmetries), so nothing is gained by merging them earlier.
fn unfold<G: Game + ?Sized>(
    game: &G,
    canonical: &SortedPositions,
    marks: &[u8],
) -> (SortedPositions, Vec<u64>) {
    let n = canonical.len();
    let (mut runs, mut raw, mut raw_len) = (Vec::new(), Vec::new(), 0usize);
    let mut block = Vec::new();
    for first in (0..n).step_by(SUPER_CHUNK) {
        let end = (first + SUPER_CHUNK).min(n);
        canonical.keys_into(first..end, &mut block);
        let pieces: Vec<Vec<u64>> = block
            .par_chunks(CHUNK)
            .zip(marks[first..end].par_chunks(CHUNK))
            .map_init(Vec::new, |images, (codes, marks)| {
                let mut out = Vec::with_capacity(codes.len() * 2);
                for (&p, &m) in codes.iter().zip(marks) {
                    images.clear();
                    game.symmetry_images(Position(p), images);
                    let mut least = u64::MAX;
                    let mut rest = m;
                    while rest != 0 {
                        least = least.min(images[rest.trailing_zeros() as usize].0);
                        rest &= rest - 1;
                    }
                    // An image reached under two symmetries is one position: the sort keeps one.
                    let mut rest = m;
                    while rest != 0 {
                        let q = images[rest.trailing_zeros() as usize].0;
                        out.push(q << 1 | u64::from(q == least));
                        rest &= rest - 1;
                    }
                }
                out
            })
            .collect();
        raw_len += pieces.iter().map(Vec::len).sum::<usize>();
        raw.extend(pieces);
        if raw_len >= UNFOLD_RUN || end == n {
            runs.push(Run::from_marked(sort_marked_pieces(std::mem::take(&mut raw), 1), 1));
            raw_len = 0;
        }
    }
    let (all, least) = Run::merge(runs).into_marked();
    let classes = least
        .par_chunks(64)
        .map(|c| c.iter().enumerate().fold(0u64, |w, (i, &f)| w | u64::from(f & 1) << i))
        .collect();
    (all, classes)
}

/// Images sorted into one run when a tier is unfolded (512 MiB of keys, as much again to sort).
const UNFOLD_RUN: usize = 1 << 26;

#[cfg(test)]
mod tests {
    use perfectplay_core::{PositionSpace, SizeClass};

    use super::*;
    use crate::discover::discover_tiers;
    use crate::NoProgress;

    /// A tier as handed: its code, positions, child tiers and (unfolded) marked classes.
    type Handed = (Tier, Vec<u64>, Vec<Tier>, Vec<u64>);

    /// Every small sparse variant with symmetries: discovered through its canonical positions, it
    /// has the tiers of a plain discovery, position for position, and in each exactly the least
    /// reached position of each class marked (moves inside a tier included: Shift Tac Toe's one
    /// tier, Dodgem). QuickCross's 16 symmetries do not fit a byte: it is discovered plainly.
    #[test]
    fn unfolded_tiers_are_the_plain_tiers_with_their_classes_marked() {
        let mut checked = Vec::new();
        for entry in perfectplay_games::catalog() {
            for &variant in entry.listed_variants.iter().chain(entry.also_checked) {
                let game = entry.variant(Some(variant)).expect("a listed variant");
                let game = game.as_ref();
                let sparse = matches!(game.space(), PositionSpace::Sparse(_));
                if !sparse || game.symmetry_count() < 2 || game.size_class() != SizeClass::Small {
                    continue;
                }
                let Some(table) = ImageTable::find(game) else { continue };
                let mut plain: Vec<Handed> = Vec::new();
                discover_tiers(game, false, &NoProgress, |t, s, c| {
                    plain.push((t, s.iter().collect(), c, Vec::new()));
                    Ok::<(), SolveError>(())
                })
                .unwrap();
                let mut unfolded: Vec<Handed> = Vec::new();
                let whole = discover_unfolded(game, &table, &NoProgress, |t, s, classes, c| {
                    unfolded.push((t, s.iter().collect(), c, classes));
                    Ok::<(), SolveError>(())
                })
                .unwrap();
                assert!(whole, "{} {variant}: codes too wide", entry.id);
                assert_eq!(plain.len(), unfolded.len(), "{} {variant}: tiers", entry.id);
                for ((t, positions, children, _), (u, all, kids, classes)) in
                    plain.iter().zip(&unfolded)
                {
                    assert_eq!((t, positions, children), (u, all, kids), "{} {variant}", entry.id);
                    let mut images = Vec::new();
                    for (i, &p) in all.iter().enumerate() {
                        images.clear();
                        game.symmetry_images(Position(p), &mut images);
                        let least = images
                            .iter()
                            .filter(|q| all.binary_search(&q.0).is_ok())
                            .map(|q| q.0)
                            .min();
                        let marked = classes[i / 64] >> (i % 64) & 1 == 1;
                        assert_eq!(marked, least == Some(p), "{} {variant}: {p}", entry.id);
                    }
                }
                checked.push(format!("{} {variant}", entry.id));
            }
        }
        for id in ["konane 5x5-corner", "konane 4x4-center", "connect4", "shifttactoe"] {
            assert!(checked.iter().any(|c| c.starts_with(id)), "{id} not checked: {checked:?}");
        }
    }
}
