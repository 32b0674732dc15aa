//! The Morris hot paths for the tier engine: children located from what a run of the tier's
//! index shares, parents found by undoing moves, placements and removals.

use super::*;
use perfectplay_core::{indices_in_tier, Locations, RunLocations, SidedLocations};

/// The points of a set, lowest first.
#[inline]
pub(super) fn points(set: u32) -> impl Iterator<Item = u32> {
    crate::board::bits(u64::from(set)).map(|p| p as u32)
}

impl Morris {
    /// Parents of `p`; with `same_tier`, only those in `p`'s tier (no placements, no removals).
    pub(super) fn parents(&self, p: Position, same_tier: bool, out: &mut Vec<Position>) {
        self.each_parent(p, same_tier, |parent| out.push(parent.code()));
    }

    /// Each parent of `p` (see [`Morris::parents`]).
    #[inline]
    pub(super) fn each_parent(&self, p: Position, same_tier: bool, mut f: impl FnMut(Parts)) {
        let q = Parts::of(p);
        // The last mover is the side not to move now.
        let last = q.passed();
        let (y, x, y_hand, x_hand) = last.sides();
        let empty = self.all() & !(x | y);
        let mut push = |parent: Parts| {
            if self.illegal(parent).is_none() && self.primitive(parent.code()).is_none() {
                f(parent);
            }
        };
        let mut each_removal = |y_before: u32, y_hand_before: u32, to: u32, from_point: u32| {
            // Whether the move formed a mill: then one of x's pieces was removed.
            if !self.mill_wins() && self.forms_mill(y, to as usize) {
                if same_tier {
                    return;
                }
                let mut candidates = empty & !from_point;
                while candidates != 0 {
                    let r = candidates.trailing_zeros();
                    candidates &= candidates - 1;
                    let x_before = x | 1 << r;
                    if self.removable(x_before) >> r & 1 == 1 {
                        push(last.with_sides(y_before, x_before, y_hand_before, x_hand));
                    }
                }
            } else {
                push(last.with_sides(y_before, x, y_hand_before, x_hand));
            }
        };
        // Placements: y had one more in hand (a placement parent is in another tier).
        if !same_tier && y_hand < self.pieces && self.moving_only.is_none() {
            for to in points(y) {
                each_removal(y & !(1 << to), y_hand + 1, to, 0);
            }
        }
        // Slides and flights: both hands empty before and after.
        if q.in_hand() == 0 {
            let count = y.count_ones();
            for to in points(y) {
                for from in points(self.targets(to as usize, count, empty)) {
                    each_removal(y & !(1 << to) | 1 << from, 0, to, 1 << from);
                }
            }
        }
    }

    /// The indices of a moving position's parents in its own tier (unsorted, repeats kept):
    /// the last mover's slides and flights back that form no mill. Such a parent keeps both
    /// sets' sizes and empty hands, so it is legal where `q` is, and it is never over: its mover
    /// has three pieces or more and the move back to `q`. `false` (nothing written) where that
    /// does not hold (Three Men's Morris, placements, a side with fewer than three pieces): the
    /// caller then takes [`Morris::each_parent`]. A parent that keeps white's set (black moved
    /// last, white with more pieces) pairs it with each black set through white's least image,
    /// found once. A parent whose white set moved (white moved last) is ranked through the
    /// neighbours of the child's white set where the caller asks for positions that share it one
    /// after another ([`SetClasses::neighbours_if_repeated`]): each move back's least image is
    /// then found once for them all.
    #[inline]
    pub(super) fn slide_parent_indices(
        &self,
        q: Parts,
        out: &mut Vec<u64>,
        cache: &mut KernelCache,
    ) -> bool {
        let (w, b) = (q.white.count_ones(), q.black.count_ones());
        if q.in_hand() != 0 || self.mill_wins() || w < 3 || b < 3 || w < b {
            return false;
        }
        out.clear();
        let classes = &self.layout.classes;
        let empty = self.all() & !(q.white | q.black);
        // The last mover's set before each move back, with the move (from, to): its piece went
        // from `from` to `to` without forming a mill there.
        let each_back = |y: u32, f: &mut dyn FnMut(u32, u32, u32)| {
            let count = y.count_ones();
            for to in points(y) {
                if self.forms_mill(y, to as usize) {
                    continue;
                }
                for from in points(self.targets(to as usize, count, empty)) {
                    f(y & !(1 << to) | 1 << from, from, to);
                }
            }
        };
        let missing = u64::MAX;
        let KernelCache { least, near, .. } = cache;
        if q.black_to_move && classes.neighbours_if_repeated(q.white, near) {
            // White moved last, the same white set as the position asked before: the parent's
            // white set is the child's with a point moved back, from `to` to `from`.
            each_back(q.white, &mut |_, from, to| {
                out.push(classes.moved_pair_index(near, to, from, q.black).unwrap_or(missing))
            });
        } else if q.black_to_move {
            // White moved last: the parent has white to move, white's set changed.
            each_back(q.white, &mut |white, _, _| {
                out.push(
                    classes.canonical_pair_index_cached(white, q.black, least).unwrap_or(missing),
                )
            });
        } else if w > b {
            // Black moved last: black to move in the parent, white's set kept. Where white's set
            // is kept by the identity alone (most sets of a tier's index), a move back toggles
            // two points of black's set ranked beside it ([`SetClasses::beside`]).
            let lead = classes.least_ranked_cached(q.white, least);
            let offset = self.pair_size(w, b);
            if let Some(beside) = classes.beside(lead, q.black) {
                each_back(q.black, &mut |_, from, to| {
                    out.push(offset + classes.beside_moved(&beside, to, from))
                });
            } else {
                each_back(q.black, &mut |black, _, _| {
                    out.push(classes.ranked_pair_index(lead, black).map_or(missing, |i| offset + i))
                });
            }
        } else {
            // As many a side, black to move in the parent: its canonical form has the colors
            // exchanged, black's set leading and white to move.
            each_back(q.black, &mut |black, _, _| {
                out.push(
                    classes.canonical_pair_index_cached(black, q.white, least).unwrap_or(missing),
                )
            });
        }
        true
    }
}

impl Morris {
    /// Each child of a position as (tier, index, exchanged) of its canonical form, from what a
    /// run of the tier's index shares: `false` where that does not apply (the caller locates each
    /// child; Three Men's Morris, or a placement position with the wrong side to move).
    #[inline]
    pub(super) fn run_children(
        &self,
        q: Parts,
        cache: &mut KernelCache,
        emit: impl FnMut(Tier, u64, bool),
    ) -> bool {
        let in_hand = q.in_hand();
        if self.mill_wins() || in_hand > 0 && !q.turn_matches_hands() {
            return false;
        }
        if in_hand == 0 {
            self.moving_children(q, cache, None, emit);
        } else {
            self.placement_children(q, cache, emit);
        }
        true
    }

    /// `f(None)` for a move that forms no mill; else `f(Some(x))` for each removable point `x`
    /// (none to remove: as if no mill formed).
    #[inline]
    pub(super) fn each_removal(mill: bool, removable: u32, mut f: impl FnMut(Option<u32>)) {
        if mill && removable != 0 {
            let mut r = removable;
            while r != 0 {
                let x = r.trailing_zeros();
                r &= r - 1;
                f(Some(x));
            }
        } else {
            f(None);
        }
    }

    /// The location of a moving-phase child whose canonical form has colors exchanged.
    #[inline]
    pub(super) fn exchanged_child(
        &self,
        white: u32,
        black: u32,
        black_to_move: bool,
        least: &mut LeastCache,
    ) -> (Tier, u64) {
        self.locate_parts(
            Parts { white, black, white_hand: 0, black_hand: 0, black_to_move },
            least,
        )
    }

    /// A placement's children. The white set's neighbours (a point added by white's placement,
    /// or removed by black's mill) are canonicalized once per set ([`SetClasses::neighbours`]);
    /// each child then costs the image of its black set and a colex rank.
    pub(super) fn placement_children(
        &self,
        q: Parts,
        cache: &mut KernelCache,
        mut emit: impl FnMut(Tier, u64, bool),
    ) {
        let classes = &self.layout.classes;
        let KernelCache { near, .. } = cache;
        let (w, b) = (q.white.count_ones(), q.black.count_ones());
        let hand = q.in_hand() - 1;
        let empty = self.all() & !(q.white | q.black);
        if q.black_to_move && hand == 0 && w <= b && classes.neighbours_if_repeated(q.black, near) {
            // Black's last placement with as many pieces or more: every child is canonical with
            // colors exchanged, led by black's set with the placed piece. Black's set's
            // neighbours are found once while it stays the same (the tier's walk keeps it for a
            // run of white sets, [`TierKernel::walk`]); white to move becomes black to move. In
            // the index's order it changes at every position: the children are found below.
            // Kept apart from that general loop: merged into it, with a test per child, tier
            // (1,4,7) took 13.0 s against 10.6 s (BENCHMARKS.md).
            let removable = self.removable(q.white);
            for to in points(empty) {
                let mill = self.forms_mill(q.black | 1 << to, to as usize);
                Self::each_removal(mill, removable, |gone| {
                    let white = gone.map_or(q.white, |x| q.white & !(1 << x));
                    let wc = white.count_ones();
                    let i = classes.neighbour_pair_index(near, Some(to), white);
                    let i = i.map_or(u64::MAX, |i| self.pair_size(b + 1, wc) + i);
                    emit(Self::tier_of(0, b + 1, wc, false), i, true);
                });
            }
            return;
        }
        classes.neighbours(q.white, near);
        let index = |point: Option<u32>, black: u32| {
            classes.neighbour_pair_index(near, point, black).unwrap_or(u64::MAX)
        };
        if !q.black_to_move {
            // White places (both hands were equal, so one is left to place): black to move, in
            // the placement phase still, colors as they are.
            let removable = self.removable(q.black);
            let (plain, removed) = (
                Self::tier_of(hand, w + 1, b, false),
                // Used only where a mill removes a black piece, so where black has one.
                Self::tier_of(hand, w + 1, b.saturating_sub(1), false),
            );
            let mut targets = empty;
            while targets != 0 {
                let to = targets.trailing_zeros();
                targets &= targets - 1;
                let mill = self.forms_mill(q.white | 1 << to, to as usize);
                Self::each_removal(mill, removable, |gone| match gone {
                    Some(x) => emit(removed, index(Some(to), q.black & !(1 << x)), false),
                    None => emit(plain, index(Some(to), q.black), false),
                });
            }
            return;
        }
        // Black places: white to move. After black's last placement the child is in the moving
        // phase, where it is canonical with colors exchanged when black has more pieces.
        let removable = self.removable(q.white);
        // Where children are exchanged (a mill's, with white one piece ahead), black's set leads
        // their canonical forms: its least-image entries (random in a large table) are all loaded
        // first, so that the loads overlap.
        let mut entries = [None; 32];
        if hand == 0 && w.saturating_sub(1) < b + 1 {
            let mut targets = empty;
            while targets != 0 {
                let to = targets.trailing_zeros();
                targets &= targets - 1;
                entries[to as usize] = classes.table_entry(q.black | 1 << to);
            }
        }
        // A placement that keeps white's set: black's set with a point added, ranked from its
        // sums.
        let added = classes.added_pairs(near, q.black);
        let mut targets = empty;
        while targets != 0 {
            let to = targets.trailing_zeros();
            targets &= targets - 1;
            let black = q.black | 1 << to;
            let mill = self.forms_mill(black, to as usize);
            Self::each_removal(mill, removable, |gone| {
                let white_count = if gone.is_some() { w - 1 } else { w };
                if hand == 0 && white_count < b + 1 {
                    // Colors exchanged: black's set first, black to move.
                    let white = gone.map_or(q.white, |x| q.white & !(1 << x));
                    let entry = entries[to as usize];
                    let i = classes.canonical_pair_index_from(black, entry, white);
                    let i = self.pair_size(b + 1, white_count) + i.unwrap_or(u64::MAX);
                    emit(Self::tier_of(0, b + 1, white_count, false), i, true);
                } else {
                    let i = match gone {
                        None => classes.added_pair_index(near, &added, to).unwrap_or(u64::MAX),
                        Some(_) => index(gone, black),
                    };
                    emit(Self::tier_of(hand, white_count, b + 1, false), i, false);
                }
            });
        }
    }

    /// A moving-phase position's children: the white set's neighbours again. A white move's
    /// result is found once per white set and move ([`SetClasses::moved_pair_index`]), a black
    /// mill's removal once per white set and point; children canonical with colors exchanged are
    /// located in full.
    pub(super) fn moving_children(
        &self,
        q: Parts,
        cache: &mut KernelCache,
        mut inside: Option<&mut u32>,
        mut emit: impl FnMut(Tier, u64, bool),
    ) {
        let classes = &self.layout.classes;
        let KernelCache { least, near, .. } = cache;
        classes.neighbours(q.white, near);
        let (w, b) = (q.white.count_ones(), q.black.count_ones());
        let empty = self.all() & !(q.white | q.black);
        // Each move of a side's pieces as `f(from, to, mill)`; where the moves that form no mill
        // are only counted, those are counted here and `f` sees the others.
        let counting = inside.is_some();
        let mut counted = 0;
        let mut each_piece = |set: u32, count: u32, f: &mut dyn FnMut(u32, u32, bool)| {
            if counting {
                counted = self.moves_forming_mills(set, count, empty, |from, to| f(from, to, true));
                return;
            }
            for from in points(set) {
                for to in points(self.targets(from as usize, count, empty)) {
                    f(from, to, self.forms_mill(set ^ (1 << from | 1 << to), to as usize));
                }
            }
        };
        if !q.black_to_move {
            // White moves; the child has black to move, colors kept while white has more.
            let removable = self.removable(q.black);
            // With as many pieces a side, a move that removes nothing gives a child whose
            // canonical form leads with black's set, the same set for every such move: its least
            // image and rank are found once (unless those moves are only counted).
            let lead =
                (w == b && inside.is_none()).then(|| classes.least_ranked_cached(q.black, least));
            // Where the child's colors are kept, its index is past the tier's white turns: as
            // many as pairs of white's set with black's, or with black's less the one removed.
            let offsets = [self.pair_size(w, b.saturating_sub(1)), self.pair_size(w, b)];
            each_piece(q.white, w, &mut |from, to, mill| {
                let white = q.white ^ (1 << from | 1 << to);
                Self::each_removal(mill, removable, |gone| {
                    if let (None, Some(n)) = (gone, inside.as_deref_mut()) {
                        *n += 1;
                        return;
                    }
                    let black = gone.map_or(q.black, |x| q.black & !(1 << x));
                    let bc = black.count_ones();
                    if w > bc {
                        let i = classes.moved_pair_index(near, from, to, black).unwrap_or(u64::MAX);
                        let offset = offsets[usize::from(bc == b)];
                        emit(Self::tier_of(0, w, bc, false), offset + i, false);
                    } else if let Some(lead) = lead.filter(|_| gone.is_none()) {
                        // Exchanged: black's set first, white to move (no offset).
                        let i = classes.ranked_pair_index(lead, white).unwrap_or(u64::MAX);
                        emit(Self::tier_of(0, b, w, false), i, true);
                    } else {
                        let (t, i) = self.exchanged_child(white, black, true, least);
                        emit(t, i, true);
                    }
                });
            });
        } else {
            // Black moves; the child has white to move, colors kept unless black has more.
            let removable = self.removable(q.white);
            each_piece(q.black, b, &mut |from, to, mill| {
                let black = q.black ^ (1 << from | 1 << to);
                Self::each_removal(mill, removable, |gone| {
                    if let (None, Some(n)) = (gone, inside.as_deref_mut()) {
                        *n += 1;
                        return;
                    }
                    let wc = if gone.is_some() { w - 1 } else { w };
                    if wc >= b {
                        let i = classes.neighbour_pair_index(near, gone, black).unwrap_or(u64::MAX);
                        emit(Self::tier_of(0, wc, b, false), i, false);
                    } else {
                        let white = gone.map_or(q.white, |x| q.white & !(1 << x));
                        let (t, i) = self.exchanged_child(white, black, false, least);
                        emit(t, i, true);
                    }
                });
            });
        }
        if let Some(n) = inside {
            *n += counted;
        }
    }

    /// The moves of `set`, a side with `count` pieces, to `empty` points: each that forms a mill
    /// passed to `mill_move(from, to)`, the others counted (the count returned). A move forms a
    /// mill at `to` where the mill's two other points hold pieces of `set` and `from` is not one
    /// of them; lines join points both ways, so the pieces that can reach `to` are its
    /// neighbours (any piece, flying). So the moves are counted a piece at a time, and only the
    /// mills of the empty points where `set` holds two of a mill's points looked at, not each
    /// move.
    #[inline]
    pub(super) fn moves_forming_mills(
        &self,
        set: u32,
        count: u32,
        empty: u32,
        mut mill_move: impl FnMut(u32, u32),
    ) -> u32 {
        let layout = &self.layout;
        let flying = self.flying && count == 3;
        let mut moves = if flying {
            count * empty.count_ones()
        } else {
            points(set).map(|from| (layout.adjacent[from as usize] & empty).count_ones()).sum()
        };
        // The points a move may complete a mill at: each mill's third, where `set` holds two.
        let mut open = 0;
        for &m in &layout.mills {
            if (m & set).count_ones() == 2 {
                open |= m & !set;
            }
        }
        for to in points(open & empty) {
            let mut froms = 0;
            for &m in &layout.mills_at[to as usize] {
                if m & !(1 << to) & !set == 0 {
                    froms |= set & !m;
                }
            }
            if !flying {
                froms &= layout.adjacent[to as usize];
            }
            moves -= froms.count_ones();
            for from in points(froms) {
                mill_move(from, to);
            }
        }
        moves
    }
}

/// The parts of a [`Morris::walk`]: enough to share among the workers in even pieces.
const WALK_PARTS: u64 = 256;

impl Morris {
    /// Whether `tier` is walked by black's set ([`TierKernel::walk`]): black's last placement
    /// with black holding as many pieces or more, so that every child is canonical with colors
    /// exchanged, led by black's set with the placed piece. In the index's order (white's set
    /// leading) neighbouring positions have different black sets, and their children lie anywhere
    /// in the child tiers; with black's set fixed and white's following, each placement's child
    /// stays in one run of its tier.
    fn walked(&self, tier: Tier) -> bool {
        let (in_hand, w, b, flip) = self.tier_parts(tier);
        !flip && in_hand == 1 && w <= b && self.moving_only.is_none() && !self.mill_wins()
    }
}

impl TierKernel for Morris {
    /// Walks the index in order: the next pair of sets from the last, unranked only where a run
    /// starts (or the turn changes in a moving-phase tier).
    fn tier_positions(&self, t: Tier, first: u64, out: &mut [Option<Position>]) {
        let (in_hand, w, b, flip) = self.tier_parts(t);
        if flip {
            out.fill(None);
            return;
        }
        let classes = &self.layout.classes;
        let pairs = self.pair_size(w, b).max(1);
        // Both hands are empty where nothing is in hand.
        let (white_hand, black_hand, placing_black) = self.hands(in_hand);
        // An index's sets are disjoint, of the tier's sizes: outside Three Men's Morris (where a
        // row of three ends the game) whether its position is legal depends on the tier and the
        // side to move alone, found once a side here, not per index.
        let by_side = (!self.mill_wins() && (w + b) as usize <= self.n()).then(|| {
            let (white, black) = ((1u32 << w) - 1, ((1u32 << b) - 1) << w);
            [false, true].map(|black_to_move| {
                let q = Parts { white, black, white_hand, black_hand, black_to_move };
                self.illegal(q).is_none()
            })
        });
        let mut previous: Option<(u32, u32)> = None;
        for (k, slot) in out.iter_mut().enumerate() {
            let index = first + k as u64;
            let (local, black_to_move) =
                if in_hand == 0 { (index % pairs, index >= pairs) } else { (index, placing_black) };
            let pair = match previous {
                Some((a, b)) if local != 0 => classes.next_pair(a, b),
                _ => classes.pair_at(w as usize, b as usize, local),
            };
            previous = pair;
            *slot = pair.and_then(|(white, black)| {
                let q = Parts { white, black, white_hand, black_hand, black_to_move };
                let legal = match by_side {
                    Some(legal) => legal[usize::from(black_to_move)],
                    None => self.illegal(q).is_none(),
                };
                legal.then(|| q.code())
            });
        }
        if in_hand == 0 && w == b {
            // A white move's child here leads with black's set (see `moving_children`): each
            // position's entry for it in the least-image table (random in a large table) is
            // loaded now, for the whole run at once so that the loads overlap, and is then found
            // in the caches.
            let touched = out
                .iter()
                .flatten()
                .fold(0u64, |acc, &p| acc ^ classes.table_entry(Parts::of(p).black).unwrap_or(0));
            std::hint::black_box(touched);
        }
    }

    fn walk_parts(&self, tier: Tier) -> usize {
        if self.walked(tier) {
            WALK_PARTS as usize
        } else {
            0
        }
    }

    /// The pairs of black's least sets and white's sets among the other points, in the order of
    /// that pair index, each located in the tier's own (white's set leading).
    fn walk(
        &self,
        tier: Tier,
        part: usize,
        cache: &mut KernelCache,
        visit: &mut dyn FnMut(u64, Position),
    ) {
        if !self.walked(tier) {
            return;
        }
        let (_, w, b, _) = self.tier_parts(tier);
        let classes = &self.layout.classes;
        let pairs = self.pair_size(b, w);
        let part = part as u64;
        let (first, last) = (pairs * part / WALK_PARTS, pairs * (part + 1) / WALK_PARTS);
        let mut previous: Option<(u32, u32)> = None;
        for j in first..last {
            let pair = match previous {
                Some((lead, second)) => classes.next_pair(lead, second),
                None => classes.pair_at(b as usize, w as usize, j),
            };
            previous = pair;
            let Some((black, white)) = pair else { continue };
            let q = Parts { white, black, white_hand: 0, black_hand: 1, black_to_move: true };
            if self.illegal(q).is_none() {
                let (_, index) = self.locate_parts(q, &mut cache.least);
                visit(index, q.code());
            }
        }
    }

    fn locate(&self, p: Position, cache: &mut KernelCache) -> (Tier, u64) {
        self.locate_parts(Parts::of(p), &mut cache.least)
    }

    /// A position of the index has a least white set: it is canonical where black's set is least
    /// under the symmetries that keep white's, and the colors stay as they are. White's set is
    /// held in `cache` for the position's children.
    fn is_canonical_at(
        &self,
        tier: Tier,
        index: u64,
        p: Position,
        cache: &mut KernelCache,
    ) -> bool {
        let q = Parts::of(p);
        if q.exchanged_is_canonical() || Tiers::tier(self, p) != tier {
            return self.locate(p, cache) == (tier, index);
        }
        let classes = &self.layout.classes;
        classes.neighbours(q.white, &mut cache.near);
        classes.is_canonical_pair(&cache.near, q.black)
    }

    fn child_locations(&self, p: Position, out: &mut Locations, cache: &mut KernelCache) {
        self.moved_locations(p, out, cache);
    }

    /// Placements' and moves' children from what the positions of a run of the tier's index
    /// share (see `Morris::placement_children` and `Morris::moving_children`). Every child of
    /// a placement is in a lower tier; a move's children in the position's own tier are distinct.
    fn child_locations_unsorted(&self, p: Position, out: &mut Locations, cache: &mut KernelCache) {
        out.clear();
        let emit = |t: Tier, i: u64, _exchanged: bool| out.push((t, i));
        if !self.run_children(Parts::of(p), cache, emit) {
            return self.moved_locations(p, out, cache);
        }
        if Parts::of(p).in_hand() == 0 {
            distinct_inside(out, self.canonical_tier(Tiers::tier(self, p)));
        }
    }

    /// A moving position's moves that remove nothing keep the other side's set and move one
    /// piece of the mover's: two such moves' children are images of each other only under a
    /// symmetry that keeps the other side's set and takes the mover's set to one of its images
    /// at most four points from it. Where there is none (the mover is white and its set is
    /// further from its every other image, or the other side's set is kept by the identity
    /// alone), the children are distinct: each such move is counted, and only the removals'
    /// children, outside the tier, located.
    fn children_outside(
        &self,
        p: Position,
        out: &mut Locations,
        cache: &mut KernelCache,
    ) -> Option<u32> {
        let q = Parts::of(p);
        if q.in_hand() != 0 || self.mill_wins() {
            return None;
        }
        let classes = &self.layout.classes;
        // White's set leads the tier's runs: what is known of it is found once a run.
        classes.neighbours(q.white, &mut cache.near);
        if !classes.one_piece_moves_distinct(&cache.near, q.black, !q.black_to_move) {
            return None;
        }
        out.clear();
        let mut inside = 0;
        self.moving_children(q, cache, Some(&mut inside), |t, i, _| out.push((t, i)));
        Some(inside)
    }

    fn child_locations_sided(
        &self,
        p: Position,
        out: &mut SidedLocations,
        cache: &mut KernelCache,
    ) -> bool {
        out.clear();
        self.run_children(Parts::of(p), cache, |t, i, exchanged| out.push((t, i, exchanged)))
    }

    /// The moving phase's tiers (but Three Men's Morris's): white's moves, where it keeps more
    /// pieces, are taken move by move over the positions that share its set.
    fn runs_children(&self, tier: Tier) -> bool {
        let (in_hand, _, _, flip) = self.tier_parts(tier);
        in_hand == 0 && !flip && !self.mill_wins()
    }

    fn run_children_sided(
        &self,
        positions: &[Position],
        out: &mut RunLocations,
        cache: &mut KernelCache,
    ) {
        self.children_by_move(positions, out, cache)
    }

    /// The board symmetries' images of a canonical position: as many as the symmetries less
    /// those that keep both sets.
    fn side_class_size(&self, p: Position) -> Option<u64> {
        let q = Parts::of(p);
        Some(self.layout.classes.pair_orbit_size(q.white, q.black))
    }

    /// A moving tier whose sides differ in pieces holds the pairs twice: white to move, then
    /// black; a tier of the other colours' forms holds none.
    fn side_class_sizes(&self, tier: Tier, first: u64, out: &mut [u32]) -> bool {
        let (in_hand, w, b, flip) = self.tier_parts(tier);
        let copies = match (flip, in_hand == 0 && w != b) {
            (true, _) => 0,
            (false, true) => 2,
            (false, false) => 1,
        };
        self.layout.classes.pair_orbit_sizes((w as usize, b as usize), copies, first, out);
        true
    }

    /// The colours exchanged: white's count and black's swap, and a placement tier's positions
    /// turn into their exchanged images (the hands no longer match the side to move), and back.
    fn exchanged_tier(&self, tier: Tier) -> Option<Tier> {
        let (in_hand, w, b, flip) = self.tier_parts(tier);
        Some(Self::tier_of(in_hand, b, w, in_hand > 0 && !flip))
    }

    fn parent_indices(&self, tier: Tier, p: Position, out: &mut Vec<u64>, cache: &mut KernelCache) {
        if self.slide_parent_indices(Parts::of(p), out, cache) {
            out.sort_unstable();
            out.dedup();
            return;
        }
        indices_in_tier(tier, out, |found| {
            self.each_parent(p, true, |parent| {
                found.push(self.locate_parts(parent, &mut cache.least))
            });
        });
    }
}

impl UndoMoves for Morris {
    /// The side not to move placed, slid or flew the piece now on a point; if that point is in
    /// one of its mills, a piece of the side to move was removed from a point now empty.
    fn undo_moves(&self, p: Position, out: &mut Vec<Position>) {
        self.parents(p, false, out);
    }

    /// Within a tier only slides and flights that form no mill lead here.
    fn undo_moves_in_tier(&self, p: Position, out: &mut Vec<Position>) {
        self.parents(p, true, out);
    }
}

impl Morris {
    /// The distinct (tier, index) of a position's children, sorted: each move made and located.
    fn moved_locations(&self, p: Position, out: &mut Locations, cache: &mut KernelCache) {
        out.clear();
        self.each_move(p, |from, to, removed| {
            out.push(
                self.locate_parts(Parts::of(self.apply(p, from, to, removed)), &mut cache.least),
            );
        });
        out.sort_unstable();
        out.dedup();
    }
}

/// A move phase's children with those inside the position's tier `own` made distinct (two moves
/// may lead to images of each other); those outside, where only the best counts, as they came.
/// A child inside is compared with those kept only where a bit of a 64-bit filter of their
/// indices says it may repeat; many children (flights) are sorted instead.
fn distinct_inside(out: &mut Locations, own: Tier) {
    const FILTERED: usize = 32;
    if out.len() > FILTERED {
        out.sort_unstable();
        out.dedup();
        return;
    }
    let mut seen = 0u64;
    let mut kept = 0;
    for k in 0..out.len() {
        let location = out[k];
        if location.0 == own {
            let bit = 1u64 << (location.1.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 58);
            if seen & bit != 0 && out[..kept].contains(&location) {
                continue;
            }
            seen |= bit;
        }
        out[kept] = location;
        kept += 1;
    }
    out.truncate(kept);
}
