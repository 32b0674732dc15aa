//! The tier engine's hot paths, which a tiered game with symmetries may fuse ([`TierKernel`]),
//! and what they share: a worker's caches ([`KernelCache`]) and the collection of parents in a
//! tier ([`indices_in_tier`]).

use crate::game::{Position, Tier};

/// Positions located: the (tier, index) of each one's canonical form.
pub type Locations = Vec<(Tier, u64)>;

/// Positions located, each with its side: whether it is the image of its canonical form under
/// the exchange (or the mirror) rather than the canonical form itself.
pub type SidedLocations = Vec<(Tier, u64, bool)>;

/// The children of a run of positions located with their sides
/// ([`TierKernel::run_children_sided`]): (the position's place in the run, tier, index, side).
pub type RunLocations = Vec<(u32, Tier, u64, bool)>;

/// What the tier engine asks most often of a tiered game with symmetries, each in one call, so a
/// game can fuse the steps (canonical form, tier, index) and walk its index in order. Each method
/// must agree with its composition of [`Symmetry::canonical`], [`Tiers::tier`],
/// [`TierIndex::tier_index`], [`TierIndex::tier_position`], [`Game::children`] and
/// [`UndoMoves::undo_moves_in_tier`]; the conformance suite checks that it does.
/// The methods that canonicalize take a worker's [`KernelCache`]: one per thread of work, reused
/// from position to position (neighbouring positions repeat most lookups).
///
/// [`Symmetry::canonical`]: crate::game::Symmetry::canonical
/// [`Tiers::tier`]: crate::game::Tiers::tier
/// [`TierIndex::tier_index`]: crate::game::TierIndex::tier_index
/// [`TierIndex::tier_position`]: crate::game::TierIndex::tier_position
/// [`Game::children`]: crate::game::Game::children
/// [`UndoMoves::undo_moves_in_tier`]: crate::game::UndoMoves::undo_moves_in_tier
/// [`UndoMoves::undo_moves`]: crate::game::UndoMoves::undo_moves
pub trait TierKernel: Send + Sync {
    /// The positions at indices `first..first + out.len()` of a tier, in order, as
    /// [`TierIndex::tier_position`](crate::game::TierIndex::tier_position) gives them.
    fn tier_positions(&self, tier: Tier, first: u64, out: &mut [Option<Position>]);
    /// The tier and index of a position's canonical form.
    fn locate(&self, position: Position, cache: &mut KernelCache) -> (Tier, u64);
    /// Whether `position`, the position at `index` of `tier`, is the canonical form of its class
    /// ([`TierKernel::locate`] gives back `(tier, index)`); a kernel may know without locating.
    fn is_canonical_at(
        &self,
        tier: Tier,
        index: u64,
        position: Position,
        cache: &mut KernelCache,
    ) -> bool {
        self.locate(position, cache) == (tier, index)
    }
    /// The distinct (tier, index) of the canonical forms of a position's children, sorted: by
    /// default [`TierKernel::child_locations_unsorted`]'s, sorted and made distinct.
    fn child_locations(&self, position: Position, out: &mut Locations, cache: &mut KernelCache) {
        self.child_locations_unsorted(position, out, cache);
        out.sort_unstable();
        out.dedup();
    }
    /// The (tier, index) of the canonical forms of a position's children where only the best
    /// child's value matters for children outside the position's tier: those may repeat and come
    /// in any order (children in its own tier are distinct). A kernel may answer these fast, from
    /// what consecutive positions of a tier share (kept in `cache`).
    fn child_locations_unsorted(
        &self,
        position: Position,
        out: &mut Locations,
        cache: &mut KernelCache,
    );
    /// The number of distinct canonical forms of a position's children inside its own tier,
    /// where the kernel can count them without locating them, with the (tier, index) of the
    /// canonical forms of its children outside that tier in `out`, as
    /// [`TierKernel::child_locations_unsorted`] gives them. For a game with undo-moves, whose
    /// engine finds the edges inside a tier from the child's side. `None` (the default): not
    /// counted, `out` unspecified.
    fn children_outside(
        &self,
        _position: Position,
        _out: &mut Locations,
        _cache: &mut KernelCache,
    ) -> Option<u32> {
        None
    }
    /// The (tier, index) of the canonical forms of a position's children, each with whether it is
    /// the canonical form of the child's exchange ([`Exchange::canonical_exchanged`]); repeats
    /// allowed. `false` where the kernel does not give them (the caller canonicalizes each child).
    ///
    /// [`Exchange::canonical_exchanged`]: crate::game::Exchange::canonical_exchanged
    fn child_locations_sided(
        &self,
        _position: Position,
        _out: &mut SidedLocations,
        _cache: &mut KernelCache,
    ) -> bool {
        false
    }
    /// Whether [`TierKernel::run_children_sided`] is offered for `tier`'s positions: where a move
    /// taken over many positions at once costs less than each position's moves taken alone (a
    /// move's result ranked once for every position sharing the set it moves). By default not.
    fn runs_children(&self, _tier: Tier) -> bool {
        false
    }
    /// [`TierKernel::child_locations_sided`] of each position of `positions`, non-primitive
    /// positions of one tier that [`TierKernel::runs_children`] offers, in index order (a
    /// search's frontier, a run of the index), as `(k, tier, index, exchanged)` with `k` the
    /// position's place in `positions`: each position's children, repeats allowed, in an order
    /// of the kernel's own. By default each position's in turn (none where the kernel does not
    /// give a position's).
    fn run_children_sided(
        &self,
        positions: &[Position],
        out: &mut RunLocations,
        cache: &mut KernelCache,
    ) {
        out.clear();
        let mut sided = SidedLocations::new();
        for (k, &p) in positions.iter().enumerate() {
            if self.child_locations_sided(p, &mut sided, cache) {
                out.extend(sided.iter().map(|&(t, i, x)| (k as u32, t, i, x)));
            }
        }
    }
    /// In a game of two symmetries (the identity and a mirror) without an exchange: the (tier,
    /// index) of the canonical forms of a position's children, each with whether the child is the
    /// mirror image of its canonical form (`false` for a child that is its own image); repeats
    /// allowed. `false` where the kernel does not give them (the caller canonicalizes each child).
    fn child_locations_mirrored(
        &self,
        _position: Position,
        _out: &mut SidedLocations,
        _cache: &mut KernelCache,
    ) -> bool {
        false
    }
    /// The number of distinct images of a canonical position under the symmetries that keep the
    /// players, where all of them are canonical "as is" and none is an image of the position's
    /// exchange (a class then has that many members on each side reached). `None`: not given.
    fn side_class_size(&self, _position: Position) -> Option<u64> {
        None
    }
    /// [`TierKernel::side_class_size`] of the positions at indices `first..first + out.len()` of a
    /// tier, in order, without making them: written where the index names a canonical position
    /// (any number elsewhere); `false`: not given (the caller makes the positions).
    fn side_class_sizes(&self, _tier: Tier, _first: u64, _out: &mut [u32]) -> bool {
        false
    }
    /// The tier of every position of `tier` exchanged
    /// ([`Exchange::exchanged`](crate::game::Exchange::exchanged)), where that is one tier for
    /// them all; `None`: not given (the caller exchanges each position).
    fn exchanged_tier(&self, _tier: Tier) -> Option<Tier> {
        None
    }
    /// The number of parts of [`TierKernel::walk`] for `tier`: 0 (the default) where the tier is
    /// walked by its index. A kernel offers a walk for a tier with no moves inside it whose
    /// index's order scatters neighbouring positions' children over their tiers.
    fn walk_parts(&self, _tier: Tier) -> usize {
        0
    }
    /// Part `part` of `walk_parts(tier)`: `visit(index, position)` for positions of `tier` in an
    /// order of the kernel's own, in which consecutive positions' children lie near each other,
    /// `index` being the index of the position's canonical form. Over all parts, each canonical
    /// position of the tier is visited (as itself or as one of its images) at least once, and no
    /// illegal position is; an index visited twice names the same class both times.
    fn walk(
        &self,
        _tier: Tier,
        _part: usize,
        _cache: &mut KernelCache,
        _visit: &mut dyn FnMut(u64, Position),
    ) {
    }
    /// Whether `reached(tier, index)` holds for the canonical form of one of a position's parents
    /// outside its tier (those [`UndoMoves::undo_moves`] gives), asked one parent at a time and
    /// no more once it holds: a search of the positions reached pulls a tier from its parents
    /// this way. `None` (the default): not offered; the search takes the undo-moves, located one
    /// by one.
    fn parent_reached(
        &self,
        _position: Position,
        _cache: &mut KernelCache,
        _reached: &mut dyn FnMut(Tier, u64) -> bool,
    ) -> Option<bool> {
        None
    }
    /// The distinct indices of the canonical forms of a position's parents in `tier` (the
    /// position's own), sorted.
    fn parent_indices(
        &self,
        tier: Tier,
        position: Position,
        out: &mut Vec<u64>,
        cache: &mut KernelCache,
    );
    /// Whether the engine may choose to initialise `tier` from the decided positions of its
    /// child tiers (where those are few), finding their parents by [`TierKernel::parents_in`]:
    /// for kernels that find them faster than the game's undo-moves. By default it does not.
    fn seeds_from_children(&self, _tier: Tier) -> bool {
        false
    }
    /// In a tier initialised from its decided children, the locations of those of `position`'s
    /// children outside its tier that [`TierKernel::parents_in`] does not find it from, appended
    /// to `out`: the engine initialises the position at once where one of them is decided, else
    /// leaves it to its other children. By default none.
    fn unseeded_children(
        &self,
        _position: Position,
        _out: &mut Locations,
        _cache: &mut KernelCache,
    ) {
    }
    /// The indices of the canonical forms of a position's parents in `tier`, a tier above the
    /// position's (repeats allowed), appended to `out`, those reached by the children
    /// [`TierKernel::unseeded_children`] names left out or not; `false` where the kernel offers
    /// none (the engine then takes the game's undo-moves, located one by one). For a tier
    /// initialised from its decided children.
    fn parents_in(
        &self,
        _tier: Tier,
        _position: Position,
        _out: &mut Vec<u64>,
        _cache: &mut KernelCache,
    ) -> bool {
        false
    }
}

/// For [`TierKernel::child_locations_unsorted`]: into `out`, the locations `push` writes, sorted
/// and made distinct where `repeats` (children inside the position's tier may repeat there: a
/// move phase's children that are images of each other).
pub fn children_located(out: &mut Locations, repeats: bool, push: impl FnOnce(&mut Locations)) {
    out.clear();
    push(out);
    if repeats {
        out.sort_unstable();
        out.dedup();
    }
}

/// For [`TierKernel::parent_indices`]: into `out`, the distinct indices, sorted, of the
/// locations in `tier` among those `each` pushes to the [`InTier`] it is given.
pub fn indices_in_tier(tier: Tier, out: &mut Vec<u64>, each: impl FnOnce(&mut InTier<'_>)) {
    out.clear();
    each(&mut InTier { tier, out });
    out.sort_unstable();
    out.dedup();
}

/// What [`indices_in_tier`] collects: the indices of the locations pushed that lie in its tier.
#[derive(Debug)]
pub struct InTier<'a> {
    tier: Tier,
    out: &'a mut Vec<u64>,
}

impl InTier<'_> {
    /// A location found: kept if it lies in the tier.
    #[inline]
    pub fn push(&mut self, (tier, index): (Tier, u64)) {
        if tier == self.tier {
            self.out.push(index);
        }
    }
}

/// One worker's scratch for a [`TierKernel`]: caches any game's kernel may use.
#[derive(Clone, Debug, Default)]
pub struct KernelCache {
    /// Least-image table entries of [`crate::SetClasses`].
    pub least: crate::LeastCache,
    /// The last set whose neighbours [`crate::SetClasses::neighbours`] found.
    pub near: crate::Neighbours,
    /// The set a move over a run of positions leads with ([`crate::SetClasses::lead`]).
    pub lead: crate::Leading,
}
