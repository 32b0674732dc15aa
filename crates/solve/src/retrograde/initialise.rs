//! A tier's initialisation: each canonical position's cell from its children (decided where
//! every child lies outside the tier, else a count of those inside, with the best outside kept),
//! by chunks of the index in order, or in the kernel's walk ([`TierKernel::walk`]) where it
//! offers one (each child tier's values as its parents read them: `children.rs`).

use super::*;
use crate::space::NOT_FOUND;

impl<G: Game + ?Sized> TierProblem<'_, G> {
    /// Initialises the parts this rank owns, each read back from the store where an earlier solve
    /// kept it.
    pub(super) fn initialise_parts(
        &self,
        parts: &mut Parts<'_>,
        codes: &Codes,
        care_words: &[AtomicU64],
        one_byte: bool,
        child_tiers: &ChildTiers<'_>,
        progress: &dyn Progress,
    ) -> Result<Initialised, Fail> {
        let n = self.space.len();
        let Layout { dense, keeps_care, has_external } = self.layout();
        let max_counter = Cells::limits_of(one_byte).0;
        let collect_edges = !self.game.has_undo_moves();
        let plan = parts.plan;
        let whole = parts.count() == 1 && parts.ranks.size() == 1;
        let seeded = self.initialises_from_children(child_tiers, whole, dense);
        let mut edges = Vec::new();
        let (mut undecided, mut sources, mut read_back) = (0u64, 0u64, 0usize);
        let mut touched = None;
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
                let spare = self.spare.filter(|_| whole);
                let part = PartCells::new(range.clone(), one_byte, has_external, spare);
                let start = Start {
                    part: &part,
                    codes,
                    child_tiers,
                    primitive_without_moves: self.game.primitive_only_without_moves(),
                    max_counter,
                    one_byte,
                    collect_edges,
                    dense,
                    care_words: keeps_care.then_some(care_words),
                };
                // A whole tier the kernel walks in an order of its own, else by index in chunks.
                let found: Vec<ChunkStart> = match self.kernel {
                    Some(kernel) if seeded => {
                        touched = Some(self.initialise_seeded(&start, kernel, progress)?);
                        Vec::new()
                    }
                    Some(kernel)
                        if parts.count() == 1
                            && kernel.walk_parts(self.tier) > 0
                            && self.walk_pays(progress) =>
                    {
                        self.initialise_walked(&start, kernel, progress)?
                    }
                    _ => {
                        let chunks = (range.start / CHUNK as u64) as usize
                            ..range.end.div_ceil(CHUNK as u64) as usize;
                        chunks
                            .into_par_iter()
                            .map_init(Scratch::default, |scratch, chunk| {
                                self.initialise(&start, chunk, scratch, progress)
                            })
                            .collect::<Result<_, Fail>>()?
                    }
                };
                if codes.overflow.load(Relaxed) {
                    return Err(Fail::Narrow(NARROW_VALUES));
                }
                for mut e in found {
                    edges.append(&mut e);
                }
                parts.cells[k] = Some(part);
            }
            if let (false, Some(part)) = (kept, &parts.cells[k]) {
                // A whole tier, not shared, that initialisation decided entirely has nothing to
                // propagate: its positions are not queued (Connect 4's tiers: every position, 8%
                // of the solve's time and most of its fresh memory).
                let (mut queues, open) =
                    if parts.count() == 1 && parts.ranks.size() == 1 && part.undecided() == 0 {
                        (Queues::new(range.end - range.start), 0)
                    } else {
                        part.sources(codes)
                    };
                // Under a memory limit (where a whole tier takes the spare), freed memory goes
                // back to the system at once: the queues keep what taken levels leave.
                if whole && self.spare.is_some() {
                    queues.recycle_taken();
                }
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
        Ok((undecided, sources, edges, touched))
    }

    /// Whether a tier the kernel offers to walk is walked: where every position is solved, and
    /// where only what the start reaches is, if it reaches at least one in 32 of the tier's
    /// indices. In Nine Men's Morris the walk alone costs about 16 ns a position visited (two
    /// cores: `examples/children`), a position reached some 300 ns walked and about 1.8 times
    /// that initialised in index order, and an index in order that is not reached about 6 ns
    /// (none where its whole chunk is not): the two ways cost the same at about 4% reached.
    /// (Its walked tiers are black's last placements where white has no more pieces: (1,8,8)
    /// 20.8% reached, (1,7,8) 3.2%, (1,6,8) 0.1%.)
    fn walk_pays(&self, progress: &dyn Progress) -> bool {
        let Some(marks) = self.reached else { return true };
        let (reached, n) = (crate::tiered::count_marked(marks), self.space.len());
        if 32 * reached >= n {
            return true;
        }
        progress.note(&format!(
            "tier {}: {reached} of {n} indices reached, initialised by index, not walked",
            self.game.tier_name(self.tier)
        ));
        false
    }

    /// Initialises one chunk of the tier: its cells, external results and words of the bitmap of
    /// canonical indices; returns its edges inside the tier. `scratch` is the worker's, kept from
    /// chunk to chunk ([`Scratch`]).
    fn initialise(
        &self,
        start: &Start<'_, '_>,
        chunk: usize,
        scratch: &mut Scratch,
        progress: &dyn Progress,
    ) -> Result<ChunkStart, Fail> {
        if progress.stopped() {
            return Err(SolveError::Stopped.into());
        }
        let part = start.part;
        let n = part.first + part.cells.len() as u64;
        scratch.waiting = None;
        let mut edges = Vec::new();
        let first = (chunk * CHUNK) as u64;
        let last = (first + CHUNK as u64).min(n);
        let mut care = [0u64; CHUNK / 64];
        let mut cared = |index: u64| {
            let k = (index - first) as usize;
            care[k / 64] |= 1 << (k % 64);
        };
        let placeholder =
            |index: u64| part.cells.store((index - part.first) as usize, DECIDED | DRAW_CODE);
        // Where only what the start reaches is solved, an index not reached is a placeholder that
        // only positions not reached refer to, stored as absent where canonical. Whether it is
        // canonical is asked only where that decides how it is stored: from an index reached
        // (whose value the non-canonical indices after it repeat in the file, for longer runs)
        // up to a canonical one. The file stores those after that as absent, canonical or not:
        // they are marked in the bitmap unasked (most of Nine Men's Morris's placement indices).
        if self.reached.is_some_and(|marks| !crate::tiered::any_marked(marks, first..last)) {
            (first..last).for_each(placeholder);
            if let Some(from) = self.first_canonical(start, first..last, scratch) {
                (from..last).for_each(&mut cared);
            }
            start.store_care(chunk, &care);
            progress.advance(last - first);
            return Ok(edges);
        }
        let mut positions = std::mem::take(&mut scratch.positions);
        self.positions_into(start, first..last, &mut positions);
        let mut batch = Batch::default();
        let by_runs = self.kernel.is_some_and(|kernel| self.initialises_by_runs(kernel));
        let mut asks = true;
        for (k, &p) in positions.iter().enumerate() {
            let index = first + k as u64;
            // Indices that name no position, or a position that is not canonical, are
            // placeholders: nothing refers to them.
            let Some(p) = p else {
                placeholder(index);
                continue;
            };
            if self.unreached(index) {
                placeholder(index);
                if !asks || self.is_canonical_here(start, p, index, &mut scratch.cache) {
                    cared(index);
                    asks = false;
                }
                continue;
            }
            if !self.is_canonical_here(start, p, index, &mut scratch.cache) {
                placeholder(index);
                continue;
            }
            cared(index);
            asks = true;
            match self.kernel {
                Some(_) if by_runs => match self.primitive_cell(p, start.codes) {
                    Some(state) => part.cells.store((index - part.first) as usize, state),
                    None => scratch.run.push(p, index),
                },
                Some(kernel) => {
                    self.initialise_ahead(kernel, start, Some((p, index)), scratch, &mut edges)?
                }
                None => {
                    self.expand_position(start, p, index, &mut batch)?;
                    if batch.children.len() >= BATCH_CHILDREN {
                        self.initialise_batch(start, &mut batch, &mut edges)?;
                    }
                }
            }
        }
        match self.kernel {
            Some(kernel) if by_runs => self.initialise_run(kernel, start, scratch)?,
            Some(kernel) => self.initialise_ahead(kernel, start, None, scratch, &mut edges)?,
            None => {}
        }
        self.initialise_batch(start, &mut batch, &mut edges)?;
        start.store_care(chunk, &care);
        progress.advance(positions.len() as u64);
        scratch.positions = positions;
        Ok(edges)
    }

    /// The positions of `indices` of the tier into `out` (`None` where an index names none).
    fn positions_into(
        &self,
        start: &Start<'_, '_>,
        indices: std::ops::Range<u64>,
        out: &mut Vec<Option<Position>>,
    ) {
        out.clear();
        if let Some(kernel) = self.kernel {
            out.resize((indices.end - indices.start) as usize, None);
            kernel.tier_positions(self.tier, indices.start, out);
        } else if start.dense {
            out.extend(indices.map(|i| self.game.tier_position(self.tier, i)));
        } else {
            let mut keys = Vec::with_capacity(CHUNK);
            self.space.positions_into(indices, &mut keys);
            out.extend(keys.iter().map(|&k| Some(Position(k))));
        }
    }

    /// Whether position `p` at `index` is the one its class is stored at: the canonical form
    /// where the tier is dense and positions are made canonical, else every position.
    fn is_canonical_here(
        &self,
        start: &Start<'_, '_>,
        p: Position,
        index: u64,
        cache: &mut KernelCache,
    ) -> bool {
        !(start.dense && self.canonicalize) || self.is_canonical(p, index, cache)
    }

    /// The first index of `indices` that names a position stored at it
    /// ([`TierProblem::is_canonical_here`]), their positions made a few at a time.
    fn first_canonical(
        &self,
        start: &Start<'_, '_>,
        indices: std::ops::Range<u64>,
        scratch: &mut Scratch,
    ) -> Option<u64> {
        const WINDOW: u64 = 64;
        let mut positions = std::mem::take(&mut scratch.positions);
        let (mut from, mut found) = (indices.start, None);
        while found.is_none() && from < indices.end {
            let to = (from + WINDOW).min(indices.end);
            self.positions_into(start, from..to, &mut positions);
            found = (from..to).zip(&positions).find_map(|(i, &p)| {
                p.filter(|&p| self.is_canonical_here(start, p, i, &mut scratch.cache)).map(|_| i)
            });
            from = to;
        }
        scratch.positions = positions;
        found
    }

    /// Initialises a whole tier in the kernel's walk ([`TierKernel::walk`]), its parts shared
    /// among the workers, each position visited initialised at its canonical index (one visited
    /// twice, the same both times). Every cell starts at 0, which no initialised cell holds (it
    /// is decided, or counts at least one child; one not reached, where only what the start
    /// reaches is solved, is decided a placeholder): those left at 0 are placeholders, and the
    /// others make the bitmap of canonical indices, in one pass in order after the walk (no
    /// atomic update of a random word in the walk).
    fn initialise_walked(
        &self,
        start: &Start<'_, '_>,
        kernel: &dyn TierKernel,
        progress: &dyn Progress,
    ) -> Result<Vec<ChunkStart>, Fail> {
        let walk_parts = kernel.walk_parts(self.tier);
        let cells = &start.part.cells;
        let n = cells.len();
        (0..n).into_par_iter().for_each(|i| cells.store(i, 0));
        let found = (0..walk_parts)
            .into_par_iter()
            .map(|k| {
                if progress.stopped() {
                    return Err(SolveError::Stopped.into());
                }
                let (mut scratch, mut edges) = (Scratch::default(), Vec::new());
                let mut walk_cache = KernelCache::default();
                let mut done = Ok(());
                kernel.walk(self.tier, k, &mut walk_cache, &mut |index, p| {
                    if done.is_err() {
                        return;
                    }
                    if index >= n as u64 {
                        let what = format!("a walk's position at index {index} of {n}");
                        done = Err(SolveError::Inconsistent { what }.into());
                        return;
                    }
                    if self.unreached(index) {
                        // Canonical (so in the bitmap), decided: a placeholder.
                        cells.store(index as usize, DECIDED | DRAW_CODE);
                        return;
                    }
                    let next = Some((p, index));
                    done = self.initialise_ahead(kernel, start, next, &mut scratch, &mut edges);
                });
                if done.is_ok() {
                    done = self.initialise_ahead(kernel, start, None, &mut scratch, &mut edges);
                }
                let share = |k: usize| n as u64 * k as u64 / walk_parts as u64;
                progress.advance(share(k + 1) - share(k));
                done.map(|()| edges)
            })
            .collect::<Result<_, Fail>>()?;
        let words = n.div_ceil(64);
        let care = start.care_words.unwrap_or(&[]);
        (0..words).into_par_iter().for_each(|k| {
            let mut word = 0u64;
            for i in k * 64..(k * 64 + 64).min(n) {
                if cells.load(i) == 0 {
                    cells.store(i, DECIDED | DRAW_CODE);
                } else {
                    word |= 1 << (i % 64);
                }
            }
            if let Some(w) = care.get(k) {
                w.store(word, Relaxed);
            }
        });
        Ok(found)
    }

    /// Initialises the cells of canonical positions from the kernel's locations of their children
    /// (where edges are not listed and the kernel can, of those outside the tier alone, those
    /// inside counted: [`TierKernel::children_outside`]), one position behind: `next` (at its
    /// index) is located and its children's values outside the tier asked for (prefetched),
    /// then the position located before it is settled, its children's values read, by when most
    /// have arrived. `None` settles the last one. A position is decided where it is primitive or
    /// has no children inside the tier, else its cell counts its children inside the tier, with
    /// its best result from outside the tier kept; its edges inside the tier go to `edges`.
    #[inline]
    fn initialise_ahead(
        &self,
        kernel: &dyn TierKernel,
        start: &Start<'_, '_>,
        next: Option<(Position, u64)>,
        scratch: &mut Scratch,
        edges: &mut ChunkStart,
    ) -> Result<(), Fail> {
        let cells = &start.part.cells;
        let next = match next {
            Some((p, index)) => match self.primitive_cell(p, start.codes) {
                Some(state) => {
                    cells.store((index - start.part.first) as usize, state);
                    None
                }
                None => {
                    let Scratch { ahead, cache, .. } = scratch;
                    // Where edges are not listed, children inside the tier may be counted alone.
                    let counted = (!start.collect_edges)
                        .then(|| kernel.children_outside(p, ahead, cache))
                        .flatten();
                    if counted.is_none() {
                        kernel.child_locations_unsorted(p, ahead, cache);
                    }
                    let mut last = None;
                    for &(child_tier, ci) in ahead.iter() {
                        if child_tier != self.tier {
                            if let Some(c) = start.child_tiers.held(child_tier, &mut last) {
                                c.prefetch(ci);
                            }
                        }
                    }
                    Some((p, index, counted.unwrap_or(0)))
                }
            },
            None => None,
        };
        if let Some((p, index, counted)) = scratch.waiting.take() {
            let Scratch { locations, blocks, .. } = scratch;
            let state = self.settle_located(start, p, index, counted, locations, blocks, edges)?;
            cells.store((index - start.part.first) as usize, state);
        }
        if next.is_some() {
            std::mem::swap(&mut scratch.locations, &mut scratch.ahead);
            scratch.waiting = next;
        }
        Ok(())
    }

    /// The decided cell of a primitive position.
    #[inline]
    pub(super) fn primitive_cell(&self, p: Position, codes: &Codes) -> Option<u16> {
        let v = self.game.primitive(p)?;
        Some(DECIDED | codes.code(ValueRemoteness::new(v, Remoteness(0))))
    }

    /// The cell of non-primitive canonical position `p` at `index` from the kernel's locations
    /// of its children ([`TierProblem::settle_position`]), its best result from outside the tier
    /// stored; its edges inside the tier go to `edges`.
    #[inline]
    pub(super) fn position_state(
        &self,
        kernel: &dyn TierKernel,
        start: &Start<'_, '_>,
        p: Position,
        index: u64,
        scratch: &mut Scratch,
        edges: &mut ChunkStart,
    ) -> Result<u16, Fail> {
        let Scratch { locations, cache, blocks, .. } = scratch;
        kernel.child_locations_unsorted(p, locations, cache);
        self.settle_located(start, p, index, 0, locations, blocks, edges)
    }

    /// [`TierProblem::position_state`] given the locations of `p`'s children, or of those
    /// outside the tier with the `counted` children inside it
    /// ([`TierKernel::children_outside`]).
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn settle_located(
        &self,
        start: &Start<'_, '_>,
        p: Position,
        index: u64,
        counted: u32,
        locations: &[(Tier, u64)],
        blocks: &mut BlockCache,
        edges: &mut ChunkStart,
    ) -> Result<u16, Fail> {
        let i = (index - start.part.first) as usize;
        if locations.is_empty() && counted == 0 {
            return Err(SolveError::NoMoves { position: p }.into());
        }
        let (mut best, mut best_key, mut inside) = (None, i32::MIN, counted);
        let mut last = None;
        for &(child_tier, ci) in locations {
            if child_tier == self.tier {
                inside += 1;
                if start.collect_edges {
                    edges.push((ci, index));
                }
            } else {
                let (key, vr) =
                    start.child_tiers.parent_value(p, child_tier, ci, &mut last, blocks)?;
                if key > best_key {
                    best_key = key;
                    best = Some(vr);
                }
            }
        }
        self.settle_position(start, p, i, inside, best)
    }

    /// The first half of initialising position `p` at `index` without a kernel: decided at once
    /// where it is primitive or has a move that wins at once, else its canonical children added
    /// to `batch`, their values to be read with the batch's.
    fn expand_position(
        &self,
        start: &Start<'_, '_>,
        p: Position,
        index: u64,
        batch: &mut Batch,
    ) -> Result<(), Fail> {
        let i = (index - start.part.first) as usize;
        let (cells, codes) = (&start.part.cells, start.codes);
        let children = &mut batch.scratch;
        children.clear();
        // A game whose positions are primitive exactly where they have no children is asked
        // only about those (Konane: a position's jumps found once, not twice).
        let primitive = if start.primitive_without_moves {
            self.game.children(p, children);
            children.is_empty().then(|| self.game.primitive(p)).flatten()
        } else {
            let primitive = self.game.primitive(p);
            if primitive.is_none() {
                self.game.children(p, children);
            }
            primitive
        };
        if let Some(v) = primitive {
            let vr = ValueRemoteness::new(v, Remoteness(0));
            cells.store(i, DECIDED | codes.code(vr));
            return Ok(());
        }
        // A move that ends the game in the mover's favour is the best there is (a win in one):
        // no child need be made canonical or looked up (Connect 4 6x4: 29% of its positions).
        // Where children are not made canonical, the lookups it would save are batched and cost
        // less than a primitive test of every child (Konane 6x6 corner without symmetry: its
        // tiers initialised in 161.5 s with the test left out, 170.3-175.9 s with it).
        if self.canonicalize
            && children.iter().any(|&c| self.game.primitive(c) == Some(Value::Lose))
        {
            let win = ValueRemoteness::new(Value::Lose, Remoteness(0)).to_parent();
            cells.store(i, DECIDED | codes.code(win));
            return Ok(());
        }
        if children.is_empty() {
            return Err(SolveError::NoMoves { position: p }.into());
        }
        let space = self.game.space();
        let tier_of = |c: Position| if self.one_tier { self.tier } else { space.tier(c) };
        // Children outside the tier are read for their values only, where a repeat changes
        // nothing: without canonical forms, the children are sorted and their repeats dropped
        // only where one lies inside the tier (and is counted). Konane's never do.
        if self.canonicalize {
            self.canonical_children(children);
        }
        let from = batch.children.len();
        batch.children.extend(children.iter().map(|&c| (tier_of(c), c)));
        if !self.canonicalize && batch.children[from..].iter().any(|&(t, _)| t == self.tier) {
            batch.children.truncate(from);
            self.canonical_children(children);
            batch.children.extend(children.iter().map(|&c| (tier_of(c), c)));
        }
        batch.positions.push((p, index, batch.children.len() as u32));
        Ok(())
    }

    /// The second half for every position of `batch`: what each child outside the tier gives its
    /// parent, read a child tier at a time (by code, [`SortedPositions::indices_of`], whose lookups
    /// overlap in memory), then each position's cell; the batch is left empty.
    fn initialise_batch(
        &self,
        start: &Start<'_, '_>,
        batch: &mut Batch,
        edges: &mut ChunkStart,
    ) -> Result<(), Fail> {
        let Batch { positions, children, given, tiers, blocks, .. } = batch;
        given.clear();
        given.resize(children.len(), (i32::MIN, ValueRemoteness::DRAW));
        // The children outside the tier dealt to their tiers in one pass (a tier has a few child
        // tiers: Konane's moves jump one or two marbles), each tier's codes with their places.
        for t in tiers.iter_mut() {
            t.codes.clear();
            t.places.clear();
        }
        let mut dealt = 0usize;
        for (k, &(t, c)) in children.iter().enumerate() {
            if t == self.tier {
                continue;
            }
            let at = match tiers[..dealt].iter().position(|b| b.tier == t) {
                Some(at) => at,
                None => {
                    if dealt == tiers.len() {
                        let (codes, places, found) = (Vec::new(), Vec::new(), Vec::new());
                        tiers.push(TierBatch { tier: t, codes, places, found });
                    }
                    tiers[dealt].tier = t;
                    dealt += 1;
                    dealt - 1
                }
            };
            tiers[at].codes.push(c.0);
            tiers[at].places.push(k as u32);
        }
        for TierBatch { tier: t, codes, places, found } in tiers[..dealt].iter_mut() {
            let first_child = || Position(codes.first().copied().unwrap_or(0));
            let child = start
                .child_tiers
                .find(*t)
                .ok_or_else(|| SolveError::ChildNotSolved { position: first_child() })?;
            let sorted = match child.space {
                TierSpace::Sorted(s) => {
                    s.indices_of(codes, found);
                    true
                }
                TierSpace::Dense { .. } => false,
            };
            for (j, (&place, &c)) in places.iter().zip(codes.iter()).enumerate() {
                let index = match sorted {
                    true => found.get(j).filter(|&&i| i != NOT_FOUND).map(|&i| u64::from(i)),
                    false => child.space.index_in(self.game, Position(c)),
                };
                given[place as usize] = index
                    .and_then(|i| child.parent_value(i, blocks))
                    .ok_or(SolveError::ChildNotSolved { position: Position(c) })?;
            }
        }
        let mut from = 0usize;
        for &(p, index, to) in positions.iter() {
            let (mut best, mut best_key, mut inside) = (None, i32::MIN, 0u32);
            let to = to as usize;
            for (&(child_tier, c), &(key, vr)) in children[from..to].iter().zip(&given[from..to]) {
                if child_tier == self.tier {
                    inside += 1;
                    if start.collect_edges {
                        let ci = self.index(c).ok_or(SolveError::ChildNotSolved { position: c })?;
                        edges.push((ci, index));
                    }
                } else if key > best_key {
                    best_key = key;
                    best = Some(vr);
                }
            }
            from = to;
            let i = (index - start.part.first) as usize;
            let state = self.settle_position(start, p, i, inside, best)?;
            start.part.cells.store(i, state);
        }
        positions.clear();
        children.clear();
        Ok(())
    }

    /// A position's cell once its children are known: decided where none is inside the tier (the
    /// best from outside), else the count of those inside, its best from outside kept.
    pub(super) fn settle_position(
        &self,
        start: &Start<'_, '_>,
        p: Position,
        i: usize,
        mut inside: u32,
        best: Option<ValueRemoteness>,
    ) -> Result<u16, Fail> {
        let (codes, external) = (start.codes, &start.part.external);
        if inside == 0 {
            // `children` is non-empty, so `best` is set.
            let best = best.unwrap_or(ValueRemoteness::DRAW);
            return Ok(DECIDED | codes.code(best));
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
                .store(external_bits(b), Relaxed);
        }
        if inside > start.max_counter {
            return Err(if start.one_byte {
                Fail::Narrow(NARROW_CHILDREN)
            } else {
                SolveError::TooManyChildren { position: p }.into()
            });
        }
        Ok(inside as u16)
    }
}

/// What initialising a tier's chunks share.
pub(super) struct Start<'a, 'v> {
    /// The part initialised.
    pub part: &'a PartCells,
    pub codes: &'a Codes,
    pub child_tiers: &'a ChildTiers<'v>,
    /// [`perfectplay_core::Game::primitive_only_without_moves`].
    pub primitive_without_moves: bool,
    /// The largest count of children inside the tier a cell holds.
    pub max_counter: u32,
    pub one_byte: bool,
    /// Whether edges inside the tier are listed (games without undo-moves).
    pub collect_edges: bool,
    pub dense: bool,
    /// The bitmap of canonical indices, where it is kept.
    pub care_words: Option<&'a [AtomicU64]>,
}

impl Start<'_, '_> {
    /// Chunk `chunk`'s words of the bitmap of canonical indices, where it is kept.
    pub fn store_care(&self, chunk: usize, care: &[u64; CHUNK / 64]) {
        if let Some(words) = self.care_words {
            for (k, &word) in care.iter().enumerate() {
                if let Some(w) = words.get(chunk * (CHUNK / 64) + k) {
                    w.store(word, Relaxed);
                }
            }
        }
    }
}

/// A worker's buffers and caches, kept from chunk to chunk: a solve under a memory limit gives
/// freed memory back to the system at once, and buffers taken anew each chunk were cleared again
/// by the kernel each time.
#[derive(Default)]
pub(super) struct Scratch {
    pub locations: Vec<(Tier, u64)>,
    pub cache: KernelCache,
    pub blocks: BlockCache,
    /// [`TierProblem::initialise_ahead`]'s position located and not yet settled, with its
    /// children inside the tier where they were counted alone (its children's locations in
    /// `locations`), and the next one's locations.
    waiting: Option<(Position, u64, u32)>,
    ahead: Vec<(Tier, u64)>,
    /// A chunk's positions.
    positions: Vec<Option<Position>>,
    /// A chunk's positions initialised a run at a time ([`TierProblem::initialise_run`]).
    pub run: super::runs::Run,
}

/// Children gathered from a batch of positions before any is looked up.
const BATCH_CHILDREN: usize = 1 << 11;

/// Positions of a chunk expanded but not yet initialised, with their canonical children.
#[derive(Default)]
struct Batch {
    /// Each position, its index, and the end of its children in `children`.
    positions: Vec<(Position, u64, u32)>,
    /// Every child of the batch with its tier.
    children: Vec<(Tier, Position)>,
    /// What each child outside the tier gives its parent, with that value's order key.
    given: Vec<(i32, ValueRemoteness)>,
    /// One position's children as the game gives them.
    scratch: Vec<Position>,
    /// The batch's children outside the tier, by their tier (those in use first).
    tiers: Vec<TierBatch>,
    blocks: BlockCache,
}

/// A batch's children in one child tier outside the tier: their codes, their places in
/// [`Batch::children`], and their indices in the child tier.
struct TierBatch {
    tier: Tier,
    codes: Vec<u64>,
    places: Vec<u32>,
    found: Vec<u32>,
}
