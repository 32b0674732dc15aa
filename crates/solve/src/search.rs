//! Live solving: the value and remoteness of one position of a loop-free game, by depth-first
//! search over its children, from nothing stored (003 3.9's "SolveLive"). A table keeps what was
//! found per canonical position, so a search shares work between transpositions and symmetric
//! positions, and later queries reuse it.
//!
//! The value is the best over the children of what each is worth to the mover
//! ([`ValueRemoteness::to_parent`]), exactly as the retrograde engine computes it, so the two
//! agree position by position. A search stops looking at a position's children once one of them
//! is worth the best any child could be (a primitive loss for the opponent: win in 1), and tries
//! the primitive children first.

use std::collections::HashMap;

use perfectplay_core::{
    Game, GameExt, Node, Position, Remoteness, SearchKernel, Value, ValueRemoteness,
};

use crate::SolveError;

/// A search with its table of positions solved.
#[derive(Debug)]
pub struct Search<'g, G: Game + ?Sized> {
    game: &'g G,
    /// Per canonical position its value, or `None` while its search is under way (a position
    /// met again below itself means the game has a loop).
    table: HashMap<Position, Option<ValueRemoteness>>,
    nodes: u64,
}

impl<'g, G: Game + ?Sized> Search<'g, G> {
    /// A search with an empty table.
    pub fn new(game: &'g G) -> Self {
        Search { game, table: HashMap::new(), nodes: 0 }
    }

    /// Positions expanded so far (their children generated).
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Canonical positions in the table.
    pub fn table_len(&self) -> usize {
        self.table.len()
    }

    /// The value and remoteness of `p`. Fails on a position that is not primitive and has no
    /// moves, and on a loop (the search is for games whose moves never return to a position).
    pub fn value(&mut self, p: Position) -> Result<ValueRemoteness, SolveError> {
        if let Some(v) = self.game.primitive(p) {
            return Ok(ValueRemoteness::new(v, Remoteness(0)));
        }
        let key = self.game.canonical(p);
        match self.table.get(&key) {
            Some(None) => {
                return Err(SolveError::Unsupported {
                    what: format!("live solving a game with a loop (at {p:?})"),
                })
            }
            Some(&Some(vr)) => return Ok(vr),
            None => {}
        }
        self.nodes += 1;
        let mut children = Vec::new();
        self.game.children(p, &mut children);
        if children.is_empty() {
            return Err(SolveError::NoMoves { position: p });
        }
        // A primitive child first: a loss for the opponent is the best there is.
        let mut best: Option<ValueRemoteness> = None;
        for &c in &children {
            if let Some(v) = self.game.primitive(c) {
                let worth = ValueRemoteness::new(v, Remoteness(0)).to_parent();
                best = Some(best.map_or(worth, |b| b.max(worth)));
            }
        }
        let top = ValueRemoteness::new(perfectplay_core::Value::Win, Remoteness(1));
        if best != Some(top) {
            self.table.insert(key, None);
            for &c in &children {
                if self.game.primitive(c).is_some() {
                    continue;
                }
                let worth = self.value(c)?.to_parent();
                best = Some(best.map_or(worth, |b| b.max(worth)));
                if best == Some(top) {
                    break;
                }
            }
        }
        let vr = best.ok_or(SolveError::NoMoves { position: p })?;
        self.table.insert(key, Some(vr));
        Ok(vr)
    }
}

/// Scores of the alpha-beta search, from the view of the player to move: a win in `r` is
/// `BASE - r`, a loss in `r` is `r - BASE`, a tie 0 (its remoteness kept beside the score).
const BASE: i32 = 1000;
const INFINITE: i32 = 2 * BASE;

/// What a score is worth to the parent moving into it: strictly decreasing, so the parent's
/// score is the maximum of this over its children.
fn to_parent(child: i32) -> i32 {
    -child + child.signum()
}

/// The child score a parent score comes from ([`to_parent`]'s inverse).
fn from_parent(parent: i32) -> i32 {
    -parent - parent.signum()
}

/// A value's score and tie remoteness.
fn score(vr: ValueRemoteness) -> Result<(i32, u16), SolveError> {
    let r = vr.remoteness_or_zero();
    match vr.value() {
        Value::Win => Ok((BASE - i32::from(r), 0)),
        Value::Lose => Ok((i32::from(r) - BASE, 0)),
        Value::Tie => Ok((0, r)),
        Value::Draw => Err(SolveError::Unsupported {
            what: "live solving a game with draws (its positions must end)".into(),
        }),
    }
}

/// How an entry's score bounds the true score (0 marks an empty slot).
const EXACT: u8 = 1;
/// The true score is at least the entry's.
const LOWER: u8 = 2;
/// The true score is at most the entry's.
const UPPER: u8 = 3;

/// A table slot: a node's key, its score, how that bounds the true score, a tie's remoteness,
/// the child that gave the score (its place among the children, tried first next time) and the
/// work its search took (log2 of the nodes), which decides what a full table keeps.
#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    key: (u64, u64),
    score: i16,
    tie: u16,
    best: u16,
    bound: u8,
    work: u8,
}

/// The table of searched nodes: open addressing in pairs of slots, growing by doubling up to a
/// cap, then keeping per pair the entry whose search took more work.
#[derive(Debug)]
struct Table {
    slots: Vec<Entry>,
    used: usize,
    max_bits: u32,
}

impl Table {
    fn new(max_bits: u32) -> Table {
        Table { slots: vec![Entry::default(); 1 << 10.min(max_bits)], used: 0, max_bits }
    }

    fn split(key: Node) -> (u64, u64) {
        (key as u64, (key >> 64) as u64)
    }

    /// The first slot of the key's pair.
    fn home(&self, key: (u64, u64)) -> usize {
        let h = (key.0 ^ key.1.rotate_left(29)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        (h >> 32) as usize & (self.slots.len() - 1) & !1
    }

    fn get(&self, key: Node) -> Option<&Entry> {
        let key = Self::split(key);
        let i = self.home(key);
        self.slots[i..i + 2].iter().find(|e| e.bound != 0 && e.key == key)
    }

    fn put(&mut self, key: Node, mut entry: Entry) {
        entry.key = Self::split(key);
        if 2 * self.used >= self.slots.len() && self.slots.len() < 1 << self.max_bits {
            let doubled = vec![Entry::default(); 2 * self.slots.len()];
            let old = std::mem::replace(&mut self.slots, doubled);
            self.used = 0;
            for e in old.into_iter().filter(|e| e.bound != 0) {
                self.place(e);
            }
        }
        self.place(entry);
    }

    fn place(&mut self, entry: Entry) {
        let i = self.home(entry.key);
        let pair = &mut self.slots[i..i + 2];
        let slot = match pair.iter().position(|e| e.bound != 0 && e.key == entry.key) {
            Some(j) => j,
            None => match pair.iter().position(|e| e.bound == 0) {
                Some(j) => {
                    self.used += 1;
                    j
                }
                None => usize::from(pair[1].work < pair[0].work),
            },
        };
        pair[slot] = entry;
    }
}

/// The table's default cap: 2^22 entries of 24 bytes (96 MiB).
pub const TABLE_BITS: u32 = 22;

/// Live solving with alpha-beta pruning: the value and remoteness of a position of a loop-free
/// game whose ties all come at the same depth below any position (Quarto's: a tie is a full
/// board, so a tie at level `n` is a tie in `16 - n`; 003 3.8). Wins and losses are scored by
/// remoteness (a faster win scores higher, a slower loss scores higher), which makes the game
/// zero-sum, so pruning never changes a value or a win's or loss's remoteness. A tie's
/// remoteness is the one of the first tie met, which the assumption makes the only one; in a
/// game where ties come at different depths use [`Search`]. A game's [`SearchKernel`] supplies
/// the nodes, the table's keys and the children with the values known without search; without
/// one, nodes are position codes, keys canonical forms and only primitive children are known.
pub struct AlphaBeta<'g, G: Game + ?Sized> {
    game: &'g G,
    kernel: Option<&'g dyn SearchKernel>,
    table: Table,
    nodes: u64,
    /// A children buffer per depth, reused.
    buffers: Vec<Vec<(Node, Option<ValueRemoteness>)>>,
    /// Asked now and then whether to stop (see [`AlphaBeta::stop_when`]).
    stop: Option<&'g (dyn Fn() -> bool + Sync)>,
}

impl<G: Game + ?Sized> std::fmt::Debug for AlphaBeta<'_, G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AlphaBeta")
            .field("table", &self.table.used)
            .field("nodes", &self.nodes)
            .finish()
    }
}

impl<'g, G: Game + ?Sized> AlphaBeta<'g, G> {
    /// A search with an empty table of at most 2^[`TABLE_BITS`] entries.
    pub fn new(game: &'g G) -> Self {
        Self::with_table_bits(game, TABLE_BITS)
    }

    /// A search whose table holds at most 2^`bits` entries (24 bytes each); a full table keeps
    /// the entries whose searches took more work.
    pub fn with_table_bits(game: &'g G, bits: u32) -> Self {
        let bits = bits.clamp(1, 40);
        AlphaBeta {
            game,
            kernel: game.search_kernel(),
            table: Table::new(bits),
            nodes: 0,
            buffers: Vec::new(),
            stop: None,
        }
    }

    /// The same search without the game's [`SearchKernel`] (for checking one against the other).
    pub fn without_kernel(game: &'g G) -> Self {
        AlphaBeta { kernel: None, ..Self::new(game) }
    }

    /// Positions expanded so far (their children generated).
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Makes the search ask `stop` every 4,096 positions expanded whether to give up, and if so
    /// fail with [`SolveError::Stopped`] (a server stops the searches nobody waits for).
    pub fn stop_when(&mut self, stop: &'g (dyn Fn() -> bool + Sync)) {
        self.stop = Some(stop);
    }

    /// Positions in the table.
    pub fn table_len(&self) -> usize {
        self.table.used
    }

    /// Empties the table.
    pub fn clear(&mut self) {
        self.table = Table::new(self.table.max_bits);
    }

    /// The value and remoteness of `p`.
    pub fn value(&mut self, p: Position) -> Result<ValueRemoteness, SolveError> {
        if let Some(v) = self.game.primitive(p) {
            return Ok(ValueRemoteness::new(v, Remoteness(0)));
        }
        let node = self.node(p);
        // The value first (the window around a tie), then a win's or loss's remoteness in the
        // window on its side, with the table of the first search.
        let (score, tie) = match self.search(node, -1, 1, 0)? {
            (0, tie) => (0, tie),
            (s, _) if s > 0 => self.search(node, 0, INFINITE, 0)?,
            _ => self.search(node, -INFINITE, 0, 0)?,
        };
        Ok(Self::value_of(score, tie))
    }

    /// [`AlphaBeta::value`] with `threads` threads: the first child of the position is searched
    /// alone, then the others are shared out, each searched with the best found so far by any
    /// thread (each thread has a table of its own; this search's table is the first thread's).
    pub fn value_parallel(
        &mut self,
        p: Position,
        threads: usize,
    ) -> Result<ValueRemoteness, SolveError> {
        use std::sync::atomic::{AtomicI32, AtomicU64, AtomicUsize, Ordering::Relaxed};
        use std::sync::Mutex;
        if threads <= 1 || self.game.primitive(p).is_some() {
            return self.value(p);
        }
        let node = self.node(p);
        let mut children = Vec::new();
        self.children(node, &mut children);
        let unknown: Vec<Node> = children.iter().filter(|c| c.1.is_none()).map(|c| c.0).collect();
        if unknown.len() < 2 {
            return self.value(p);
        }
        self.nodes += 1;
        let (mut best, mut tie) = (-INFINITE, 0u16);
        for &(_, known) in &children {
            if let Some(vr) = known {
                let (s, t) = score(vr)?;
                if to_parent(s) > best {
                    (best, tie) = (to_parent(s), t + 1);
                }
            }
        }
        let top = BASE - 1;
        if best < top {
            let window =
                |alpha: i32| ((from_parent(INFINITE) - 1).max(-INFINITE), from_parent(alpha) + 1);
            let (lo, hi) = window(best);
            let (s, t) = self.search(unknown[0], lo, hi.min(INFINITE), 1)?;
            if to_parent(s) > best {
                (best, tie) = (to_parent(s), t + 1);
            }
            let alpha = AtomicI32::new(best);
            let found = Mutex::new((best, tie));
            let (next, nodes) = (AtomicUsize::new(1), AtomicU64::new(0));
            let failed: Mutex<Option<SolveError>> = Mutex::new(None);
            let bits = self.table.max_bits;
            let work = |search: &mut AlphaBeta<'g, G>| loop {
                let i = next.fetch_add(1, Relaxed);
                let a = alpha.load(Relaxed);
                if i >= unknown.len() || a >= top {
                    break;
                }
                let (lo, hi) = window(a);
                match search.search(unknown[i], lo, hi.min(INFINITE), 1) {
                    Ok((s, t)) => {
                        alpha.fetch_max(to_parent(s), Relaxed);
                        if let Ok(mut f) = found.lock() {
                            if to_parent(s) > f.0 {
                                *f = (to_parent(s), t + 1);
                            }
                        }
                    }
                    Err(e) => {
                        if let Ok(mut f) = failed.lock() {
                            *f = Some(e);
                        }
                        next.store(unknown.len(), Relaxed);
                    }
                }
            };
            let (game, kernel, stop) = (self.game, self.kernel, self.stop);
            std::thread::scope(|scope| {
                for _ in 1..threads {
                    scope.spawn(|| {
                        let mut other = AlphaBeta::with_table_bits(game, bits);
                        other.kernel = kernel;
                        other.stop = stop;
                        work(&mut other);
                        nodes.fetch_add(other.nodes, Relaxed);
                    });
                }
                work(self);
            });
            if let Some(e) = failed.into_inner().ok().flatten() {
                return Err(e);
            }
            self.nodes += nodes.into_inner();
            (best, tie) = found.into_inner().unwrap_or((best, tie));
        }
        Ok(Self::value_of(best, tie))
    }

    /// A score's value and remoteness.
    fn value_of(score: i32, tie: u16) -> ValueRemoteness {
        let r = |x: i32| Remoteness(x as u16);
        match score {
            0 => ValueRemoteness::new(Value::Tie, Remoteness(tie)),
            s if s > 0 => ValueRemoteness::new(Value::Win, r(BASE - s)),
            s => ValueRemoteness::new(Value::Lose, r(BASE + s)),
        }
    }

    /// The value of `p` alone (win, lose or tie, no remoteness): a search with the window
    /// around a tie, which prunes far more than [`AlphaBeta::value`]'s.
    pub fn value_only(&mut self, p: Position) -> Result<Value, SolveError> {
        if let Some(v) = self.game.primitive(p) {
            return Ok(v);
        }
        let node = self.node(p);
        let (score, _) = self.search(node, -1, 1, 0)?;
        Ok(match score {
            0 => Value::Tie,
            s if s > 0 => Value::Win,
            _ => Value::Lose,
        })
    }

    fn key(&self, node: Node) -> Node {
        match self.kernel {
            Some(kernel) => kernel.search_key(node),
            None => Node::from(self.game.canonical(Position(node as u64)).0),
        }
    }

    /// The children of a non-primitive node with their values where known.
    fn children(&self, node: Node, out: &mut Vec<(Node, Option<ValueRemoteness>)>) {
        match self.kernel {
            Some(kernel) => kernel.search_children(node, out),
            None => {
                let mut children = Vec::new();
                self.game.children(Position(node as u64), &mut children);
                out.extend(children.into_iter().map(|c| {
                    let known =
                        self.game.primitive(c).map(|v| ValueRemoteness::new(v, Remoteness(0)));
                    (Node::from(c.0), known)
                }));
            }
        }
    }

    /// A position's node: the kernel's packing, or the code itself.
    fn node(&self, p: Position) -> Node {
        match self.kernel {
            Some(kernel) => kernel.search_node(p),
            None => Node::from(p.0),
        }
    }

    fn position(&self, node: Node) -> Position {
        match self.kernel {
            Some(kernel) => kernel.search_position(node),
            None => Position(node as u64),
        }
    }

    /// The score of a non-primitive node, exact where it lies strictly inside `(alpha, beta)`,
    /// else a bound on the side it falls (fail-soft).
    fn search(
        &mut self,
        node: Node,
        mut alpha: i32,
        mut beta: i32,
        depth: u32,
    ) -> Result<(i32, u16), SolveError> {
        if depth as i32 >= BASE - 2 {
            return Err(SolveError::Unsupported {
                what: "live solving deeper than 998 moves".into(),
            });
        }
        // A position that is not primitive scores from a loss in 1 to a win in 1: a window
        // outside that is decided without a search (so a search for a fast win or a slow loss
        // goes only as deep as that remoteness).
        if alpha >= BASE - 1 {
            return Ok((BASE - 1, 0));
        }
        if beta <= 1 - BASE {
            return Ok((1 - BASE, 0));
        }
        let key = self.key(node);
        let mut first = None;
        if let Some(e) = self.table.get(key) {
            let score = i32::from(e.score);
            match e.bound {
                EXACT => return Ok((score, e.tie)),
                LOWER => alpha = alpha.max(score),
                _ => beta = beta.min(score),
            }
            if alpha >= beta {
                return Ok((score, e.tie));
            }
            first = Some(usize::from(e.best));
        }
        let nodes_before = self.nodes;
        self.nodes += 1;
        if self.nodes & 4095 == 0 && self.stop.is_some_and(|stop| stop()) {
            return Err(SolveError::Stopped);
        }
        let d = depth as usize;
        if self.buffers.len() <= d {
            self.buffers.resize_with(d + 1, Vec::new);
        }
        let mut children = std::mem::take(&mut self.buffers[d]);
        children.clear();
        self.children(node, &mut children);
        let found = self.search_children(node, &children, alpha, beta, first, depth);
        self.buffers[d] = children;
        let (best, tie, best_child, alpha0) = found?;
        let bound = if best <= alpha0 {
            UPPER
        } else if best >= beta {
            LOWER
        } else {
            EXACT
        };
        let work = (64 - (self.nodes - nodes_before).leading_zeros()) as u8;
        let entry =
            Entry { key: (0, 0), score: best as i16, tie, best: best_child as u16, bound, work };
        self.table.put(key, entry);
        Ok((best, tie))
    }

    /// The best over a node's children (its score, a tie's remoteness, the child that gave it)
    /// and the window's lower end as it came.
    fn search_children(
        &mut self,
        node: Node,
        children: &[(Node, Option<ValueRemoteness>)],
        mut alpha: i32,
        beta: i32,
        first: Option<usize>,
        depth: u32,
    ) -> Result<(i32, u16, usize, i32), SolveError> {
        if children.is_empty() {
            return Err(SolveError::NoMoves { position: self.position(node) });
        }
        let (alpha0, top) = (alpha, BASE - 1);
        let (mut best, mut tie, mut best_child) = (-INFINITE, 0u16, 0usize);
        // Children whose values are known first: a loss for the opponent is the best there is.
        for (i, &(_, known)) in children.iter().enumerate() {
            if let Some(vr) = known {
                let (s, t) = score(vr)?;
                if to_parent(s) > best {
                    (best, tie, best_child) = (to_parent(s), t + 1, i);
                }
            }
        }
        alpha = alpha.max(best);
        // A child whose value is not known is not primitive, so it is worth a win in 2 at most.
        let unknown_at_most = BASE - 2;
        if alpha >= unknown_at_most && best < unknown_at_most {
            // None of them can beat the window: the score is at most that (a bound below alpha).
            best = unknown_at_most;
        } else if best < top && alpha < beta && alpha < unknown_at_most {
            // The child that was best when this key was last searched, then the rest in order.
            let first = first.filter(|&i| i < children.len() && children[i].1.is_none());
            let order = first.into_iter().chain((0..children.len()).filter(|&i| Some(i) != first));
            for i in order {
                let (c, known) = children[i];
                if known.is_some() {
                    continue;
                }
                // The child's window, one wider on each side than the parent's maps to.
                let (lo, hi) = (from_parent(beta) - 1, from_parent(alpha) + 1);
                let (s, t) = self.search(c, lo.max(-INFINITE), hi.min(INFINITE), depth + 1)?;
                if to_parent(s) > best {
                    (best, tie, best_child) = (to_parent(s), t + 1, i);
                }
                alpha = alpha.max(best);
                if alpha >= beta {
                    break;
                }
            }
        }
        Ok((best, tie, best_child, alpha0))
    }
}
