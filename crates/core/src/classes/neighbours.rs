//! A worker's view of one set and the sets one move from it ([`Neighbours`]): a run of pairs that
//! share their first set (a tier index's runs) finds the canonical pairs of its moves' results
//! from what it keeps of that set, without a table lookup each.

use super::SetClasses;

/// A moved set's packing: per byte of a second set and its value, the points of its image under
/// the symmetry that takes the moved set to its least image, packed among the points that image
/// leaves (what [`SetClasses::ranked_pair_index`] finds one point at a time, here one byte at a
/// time: an image and a packing are both unions of their points').
type Packing = [[u32; 256]; 4];

/// No packing made for a move.
const NO_PACKING: u16 = u16::MAX;

/// A move's packing is made once it has been asked this often for one set: it costs some 1,100
/// steps, each second set ranked through it a few fewer table reads.
pub(super) const PACK_AFTER: u16 = 256;

/// The most packings a worker keeps for one set (4 KiB each, in the caches with the rest).
const MAX_PACKINGS: usize = 48;

/// What a worker keeps of one set while it stays the same (see [`SetClasses::neighbours`]): the
/// least image, symmetries and rank of the set and of each set one point away from it.
#[derive(Clone, Debug)]
pub struct Neighbours {
    owner: u64,
    /// The set held (`u32::MAX`: none).
    set: u32,
    /// Per point, (least image, symmetry mask, rank or `u32::MAX` if unranked) of the set with
    /// that point toggled; the last entry is the set's own.
    entries: [(u32, u32, u32); 33],
    /// Per (point removed, point added) = `32 * removed + added`, the same of the set with one
    /// point moved, found on first use: valid where `stamps` holds `generation`.
    moved: Vec<(u32, u32, u32)>,
    stamps: Vec<u32>,
    generation: u32,
    /// Per move (as `moved`, valid with it): how often it was asked while the set was held, and
    /// the slot of its packing in `packs` (`NO_PACKING`: none).
    packing: Vec<(u16, u16)>,
    /// The packings made for the set held ([`SetClasses::pack_into`]): the first `packs_used`.
    packs: Vec<Packing>,
    packs_used: usize,
    /// The set last asked of [`SetClasses::neighbours_if_repeated`] (`u32::MAX`: none).
    asked: u32,
    /// The fewest points in which the set and another of its images differ: 0 where a symmetry
    /// other than the identity keeps it.
    spread: u32,
    /// The symmetries but the identity that take the set to an image at most four points from
    /// it, as a mask: the only ones under which one-piece moves' results can be images of each
    /// other ([`SetClasses::one_piece_moves_distinct`]).
    close: u32,
}

impl Neighbours {
    /// The fewest points in which the set held and another of its images differ (the points of
    /// either not in the other): 0 where a symmetry other than the identity keeps the set.
    /// Two sets one move (a point removed, one added) from it are then images of each other only
    /// where it is at most 4.
    pub fn spread(&self) -> u32 {
        self.spread
    }
}

/// One first set held to rank many second sets beside it ([`SetClasses::lead`]): a move's
/// result taken over a run of positions that share the set moved, each position's other set
/// ranked beside it through one packing, a few table reads each.
#[derive(Clone, Debug)]
pub struct Leading {
    /// (least image, symmetry mask, rank or `u32::MAX` if unranked), as [`Neighbours`] keeps.
    entry: (u32, u32, u32),
    /// Whether `pack` holds the packing of second sets beside the set.
    packed: bool,
    pack: Box<Packing>,
}

impl Default for Leading {
    fn default() -> Self {
        Leading { entry: (0, 0, u32::MAX), packed: false, pack: Box::new([[0; 256]; 4]) }
    }
}

/// A pair whose first set is its own least image, kept by the identity alone (as a tier index's
/// first sets mostly are), held to rank the pairs that move one point of its second set
/// ([`SetClasses::beside`]): such a pair's second set is ranked among the points the first leaves
/// as it is, so a moved point toggles two bits of it, no image or packing needed.
#[derive(Clone, Copy, Debug)]
pub struct Beside {
    /// The rank of the first pair of the first set's run.
    base: u64,
    /// The points the first set leaves.
    free: u32,
    /// The second set packed among them.
    packed: u32,
}

/// A second set's sums for ranking it with one point added beside a set ([`SetClasses::
/// added_pairs`]).
#[derive(Clone, Debug)]
pub struct AddedPairs {
    b: u32,
    /// The points the set leaves.
    free: u32,
    /// The rank of the first pair of the set's run; `None`: each pair made canonical.
    base: Option<u64>,
    /// Per number `j` of `b`'s points passed, the sums of their terms in the colex rank at their
    /// places (`lower`) and one place up (`raised`).
    lower: [u64; 33],
    raised: [u64; 33],
}

/// The number of points of `set` below `point`.
#[inline]
fn below(point: u32, set: u32) -> u32 {
    (set & ((1u64 << point) - 1) as u32).count_ones()
}

impl Default for Neighbours {
    fn default() -> Self {
        Neighbours {
            owner: 0,
            set: u32::MAX,
            entries: [(0, 0, u32::MAX); 33],
            moved: Vec::new(),
            stamps: Vec::new(),
            generation: 0,
            packing: Vec::new(),
            packs: Vec::new(),
            packs_used: 0,
            asked: u32::MAX,
            spread: 0,
            close: 0,
        }
    }
}

impl SetClasses {
    /// Whether the pairs that moves of one piece each (a point removed, an empty one added) make
    /// of a pair of sets are never images of one another, so that they need no canonical form to
    /// be told apart. `near` holds the pair's first set, `second` is the other, and
    /// `first_moves` says which set the moves change. Two such pairs are images only under a
    /// symmetry that keeps the set not moved and takes the moved set to an image at most four
    /// points from it (two points from the image of each result, each two points from the set);
    /// where no symmetry but the identity does both, they are distinct. Only the symmetries
    /// [`Neighbours`] found close to its set are looked at, most sets having none.
    pub fn one_piece_moves_distinct(
        &self,
        near: &Neighbours,
        second: u32,
        first_moves: bool,
    ) -> bool {
        let mut close = near.close;
        while close != 0 {
            let s = close.trailing_zeros() as usize;
            close &= close - 1;
            let images_meet = if first_moves {
                self.image(s, second) == second
            } else {
                self.image(s, near.set) == near.set
                    && (self.image(s, second) ^ second).count_ones() <= 4
            };
            if images_meet {
                return false;
            }
        }
        true
    }

    /// Makes `near` hold `set`: its own least image, symmetries and rank, and those of each set
    /// with one point added or removed. A run of pairs that share their first set (a tier index's
    /// runs) then finds the canonical pairs of its moves' results without a table lookup each:
    /// [`SetClasses::neighbour_pair_index`].
    pub fn neighbours(&self, set: u32, near: &mut Neighbours) {
        if near.owner == self.id && near.set == set {
            return;
        }
        for point in 0..self.n {
            near.entries[point] = self.entry(set ^ 1 << point);
        }
        near.entries[32] = self.entry(set);
        (near.spread, near.close) = (u32::MAX, 0);
        for s in (0..self.symmetry_count()).filter(|&s| 1 << s != self.identity_mask) {
            let apart = (self.image(s, set) ^ set).count_ones();
            near.spread = near.spread.min(apart);
            if apart <= 4 {
                near.close |= 1 << s;
            }
        }
        near.owner = self.id;
        near.set = set;
        if near.moved.is_empty() {
            near.moved = vec![(0, 0, u32::MAX); 32 * 32];
            near.stamps = vec![0; 32 * 32];
            near.packing = vec![(0, NO_PACKING); 32 * 32];
        }
        near.packs_used = 0;
        near.generation = near.generation.wrapping_add(1);
        if near.generation == 0 {
            near.stamps.fill(0);
            near.generation = 1;
        }
    }

    /// Makes `near` hold `set` where it holds it already or `set` was also the set last asked
    /// here (a run of positions sharing it, worth the neighbours' lookups); returns whether
    /// `near` holds it. A caller whose set changes at every position is answered `false` each
    /// time and finds what it needs another way.
    pub fn neighbours_if_repeated(&self, set: u32, near: &mut Neighbours) -> bool {
        let repeated = near.asked == set;
        near.asked = set;
        if near.owner == self.id && near.set == set {
            return true;
        }
        if repeated {
            self.neighbours(set, near);
        }
        repeated
    }

    /// A set's least image, symmetries and rank (`u32::MAX`: unranked), as [`Neighbours`] keeps
    /// them.
    fn entry(&self, set: u32) -> (u32, u32, u32) {
        let (least, mask, rank) = self.least_ranked(set);
        (least, mask, rank.and_then(|r| u32::try_from(r).ok()).unwrap_or(u32::MAX))
    }

    /// The index of the canonical form of the pair (`near`'s set with a point moved from
    /// `removed` to `added`; `b`), as [`SetClasses::canonical_pair_index`] gives it. The moved
    /// set's least image is found once per `near`'s set and move.
    #[inline]
    pub fn moved_pair_index(
        &self,
        near: &mut Neighbours,
        removed: u32,
        added: u32,
        b: u32,
    ) -> Option<u64> {
        debug_assert!(near.owner == self.id && near.set != u32::MAX);
        let k = (32 * (removed & 31) + (added & 31)) as usize;
        if near.stamps[k] != near.generation {
            near.moved[k] = self.entry(near.set ^ (1 << removed | 1 << added));
            near.stamps[k] = near.generation;
            near.packing[k] = (0, NO_PACKING);
        }
        let (least, mask, rank) = near.moved[k];
        if rank == u32::MAX {
            return None;
        }
        let (uses, slot) = near.packing[k];
        if slot != NO_PACKING {
            return Some(self.packed_pair_index(&near.packs[usize::from(slot)], least, rank, b));
        }
        if uses < PACK_AFTER {
            near.packing[k].0 = uses + 1;
        } else if mask & mask.wrapping_sub(1) == 0 && near.packs_used < MAX_PACKINGS {
            // One symmetry takes the moved set to its least image: the second set's image under
            // it, packed, byte by byte.
            let slot = near.packs_used;
            if near.packs.len() == slot {
                near.packs.push([[0; 256]; 4]);
            }
            self.pack_into(mask.trailing_zeros() as usize, least, &mut near.packs[slot]);
            near.packs_used += 1;
            near.packing[k].1 = slot as u16;
        }
        self.ranked_pair_index((least, mask, Some(u64::from(rank))), b)
    }

    /// The index of the pair (`least`, ranked `rank`; `b`) through `b`'s packing beside `least`
    /// ([`SetClasses::pack_into`]).
    #[inline]
    fn packed_pair_index(&self, pack: &Packing, least: u32, rank: u32, b: u32) -> u64 {
        let packed = pack[0][(b & 0xff) as usize]
            | pack[1][(b >> 8 & 0xff) as usize]
            | pack[2][(b >> 16 & 0xff) as usize]
            | pack[3][(b >> 24) as usize];
        let free = self.n - least.count_ones() as usize;
        u64::from(rank) * self.binomial(free, b.count_ones() as usize) + self.colex_of(packed)
    }

    /// Makes `lead` hold `set`: its least image, symmetries and rank, and where `pack` (many
    /// second sets to come) and one symmetry takes it to its least image, the packing of second
    /// sets beside it ([`SetClasses::pack_into`], some 1,100 steps).
    pub fn lead(&self, set: u32, pack: bool, lead: &mut Leading) {
        lead.entry = self.entry(set);
        let (least, mask, rank) = lead.entry;
        lead.packed = pack && rank != u32::MAX && mask & mask.wrapping_sub(1) == 0;
        if lead.packed {
            self.pack_into(mask.trailing_zeros() as usize, least, &mut lead.pack);
        }
    }

    /// The index of the canonical form of the pair (`lead`'s set, `b`), as
    /// [`SetClasses::canonical_pair_index`] gives it.
    #[inline]
    pub fn lead_pair_index(&self, lead: &Leading, b: u32) -> Option<u64> {
        let (least, mask, rank) = lead.entry;
        if lead.packed {
            return Some(self.packed_pair_index(&lead.pack, least, rank, b));
        }
        self.ranked_pair_index((least, mask, (rank != u32::MAX).then_some(u64::from(rank))), b)
    }

    /// The pair (the first set given as [`SetClasses::least_ranked`] gives it, `b`) held to rank
    /// `b`'s one-point moves beside it ([`SetClasses::beside_moved`]): `None` unless the set is
    /// ranked, its own least image, and kept by the identity alone.
    #[inline]
    pub fn beside(&self, (least, mask, rank): (u32, u32, Option<u64>), b: u32) -> Option<Beside> {
        if mask != self.identity_mask {
            return None;
        }
        let free = !least & self.all_points();
        let base = rank? * self.binomial(free.count_ones() as usize, b.count_ones() as usize);
        Some(Beside { base, free, packed: self.compress(b, free) })
    }

    /// `beside` with its second set `b` in place of the one it holds (as many points): what
    /// [`SetClasses::beside`] gives for the same first set and `b`, without asking again.
    #[inline]
    pub fn beside_reseated(&self, beside: &Beside, b: u32) -> Beside {
        Beside { packed: self.compress(b, beside.free), ..*beside }
    }

    /// The index of the canonical form of the pair `beside` holds with its second set's point
    /// `from` moved to `to` (both among the points the first set leaves): what
    /// [`SetClasses::ranked_pair_index`] gives for it.
    #[inline]
    pub fn beside_moved(&self, beside: &Beside, from: u32, to: u32) -> u64 {
        let bit = |p: u32| 1u32 << (beside.free & ((1u64 << p) - 1) as u32).count_ones();
        beside.base + self.colex_of(beside.packed ^ bit(from) ^ bit(to))
    }

    /// Into `pack`, per byte of a set and its value, the image of those points under symmetry
    /// `s` packed among the points `least` leaves (as [`SetClasses::compress`] packs them): each
    /// byte value's from the value without its lowest point, and that point's.
    fn pack_into(&self, s: usize, least: u32, pack: &mut Packing) {
        let free = !least & self.all_points();
        for (t, row) in pack.iter_mut().enumerate() {
            let single: [u32; 8] = std::array::from_fn(|j| {
                let Some(&q) = self.perms[s].get(8 * t + j) else { return 0 };
                match free >> q & 1 {
                    1 => 1 << (free & ((1u64 << q) - 1) as u32).count_ones(),
                    _ => 0,
                }
            });
            row[0] = 0;
            for v in 1..256 {
                row[v] = row[v & (v - 1)] | single[v.trailing_zeros() as usize];
            }
        }
    }

    /// The index of the canonical form of the pair (`near`'s set with `point` toggled, or the set
    /// itself for `None`; `b`), as [`SetClasses::canonical_pair_index`] gives it.
    #[inline]
    pub fn neighbour_pair_index(
        &self,
        near: &Neighbours,
        point: Option<u32>,
        b: u32,
    ) -> Option<u64> {
        debug_assert!(near.owner == self.id && near.set != u32::MAX);
        let (least, mask, rank) = near.entries[point.map_or(32, |p| p as usize & 31)];
        let rank = (rank != u32::MAX).then_some(u64::from(rank));
        self.ranked_pair_index((least, mask, rank), b)
    }

    /// The index of the canonical form of each pair (`near`'s set, `b` with one point added),
    /// for every point neither set holds, as [`SetClasses::neighbour_pair_index`] gives it for
    /// `b | 1 << point`: `f(point, index)`, the points in increasing order
    /// ([`SetClasses::added_pairs`]).
    #[inline]
    pub fn added_pair_indices(
        &self,
        near: &Neighbours,
        b: u32,
        mut f: impl FnMut(u32, Option<u64>),
    ) {
        let added = self.added_pairs(near, b);
        let mut empty = added.free & !b;
        while empty != 0 {
            let point = empty.trailing_zeros();
            empty &= empty - 1;
            f(point, self.added_pair_index(near, &added, point));
        }
    }

    /// What ranks the pairs (`near`'s set, `b` with one point added) in a few steps each
    /// ([`SetClasses::added_pair_index`]). Where `near`'s set is least and kept by the identity
    /// alone (most of a tier's runs), each such pair is canonical as it is, and its colex rank
    /// follows from `b`'s: a point added leaves `b`'s points below it their places in the
    /// rank's sum and moves those above it up one, so each rank is two sums kept per number of
    /// `b`'s points passed, and one binomial. Elsewhere each pair is made canonical.
    #[inline]
    pub fn added_pairs(&self, near: &Neighbours, b: u32) -> AddedPairs {
        debug_assert!(near.owner == self.id && near.set != u32::MAX);
        let (least, mask, rank) = near.entries[32];
        let free = !near.set & self.all_points();
        let mut added = AddedPairs { b, free, base: None, lower: [0; 33], raised: [0; 33] };
        if least != near.set || mask != self.identity_mask || rank == u32::MAX {
            return added;
        }
        let c = &self.binomial;
        let k = b.count_ones() as usize;
        added.base = Some(u64::from(rank) * self.binomial(free.count_ones() as usize, k + 1));
        let mut rest = b;
        for j in 1..=k {
            let x = below(rest.trailing_zeros(), free) as usize;
            rest &= rest - 1;
            added.lower[j] = added.lower[j - 1] + c[x][j];
            added.raised[j] = added.raised[j - 1] + c[x][j + 1];
        }
        added
    }

    /// The index of the canonical form of the pair (`near`'s set, `b` with `point` added), `b`
    /// as `added` was made for it, as [`SetClasses::neighbour_pair_index`] gives it.
    #[inline]
    pub fn added_pair_index(
        &self,
        near: &Neighbours,
        added: &AddedPairs,
        point: u32,
    ) -> Option<u64> {
        let b = added.b;
        let Some(base) = added.base else {
            return self.neighbour_pair_index(near, None, b | 1 << point);
        };
        let (x, j) = (below(point, added.free) as usize, below(point, b) as usize);
        let k = b.count_ones() as usize;
        Some(base + added.lower[j] + self.binomial[x][j + 1] + added.raised[k] - added.raised[j])
    }

    /// Whether the pair (`near`'s set, `b`) is canonical: that set is least (and ranked), and `b`
    /// is least under the symmetries that keep it. Most sets are kept by the identity alone, and
    /// then nothing is computed for `b`.
    #[inline]
    pub fn is_canonical_pair(&self, near: &Neighbours, b: u32) -> bool {
        debug_assert!(near.owner == self.id && near.set != u32::MAX);
        let (least, mask, rank) = near.entries[32];
        least == near.set
            && rank != u32::MAX
            && (mask & mask.wrapping_sub(1) == 0 || self.least_under(mask, b).0 == b)
    }
}
