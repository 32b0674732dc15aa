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

mod table;

use std::collections::HashMap;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex};

use perfectplay_core::{
    Bound, Game, GameExt, Node, Position, Remoteness, SearchKernel, Value, ValueProver,
    ValueRemoteness,
};

use crate::SolveError;
use table::{Entry, Table};

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

/// How an entry's score bounds the true score ([`Bound`]; 0 marks an empty slot).
const EXACT: u8 = Bound::Exact as u8;
const LOWER: u8 = Bound::Lower as u8;

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
    /// Shared with the searches of other threads ([`AlphaBeta::share`]).
    table: Arc<Table>,
    nodes: u64,
    /// A children buffer per depth, reused.
    buffers: Vec<Vec<(Node, Option<ValueRemoteness>)>>,
    /// Asked now and then whether to stop (see [`AlphaBeta::stop_when`]).
    stop: Option<&'g (dyn Fn() -> bool + Sync)>,
    /// The search gives up (as if stopped) once it has expanded this many positions.
    budget: u64,
    /// Whether other searches share the table (which then no longer grows).
    shared: bool,
    /// Rounds of parallel search so far.
    rounds: u32,
    /// The nodes the threads of a parallel search are searching now (see [`Busy`]).
    busy: Option<Arc<Busy>>,
    /// The game's prover of values alone ([`SearchKernel::prover`]), made when first needed:
    /// a value is proven first, then a win's or loss's remoteness searched on its side.
    prover: Option<Box<dyn ValueProver + 'g>>,
}

/// The prover's table grows to 2^22 entries of 16 bytes (64 MiB) at most (a prover's table
/// starts small and grows with its proof: a fixed 2^18 or 2^20 cost the short searches more in
/// page faults than it saved, measured).
const PROVER_BITS: u32 = 22;

/// Searches expanding at most this many positions are done on one thread: most positions need
/// far fewer, and a second thread costs its start and the table's growth to share it.
const ALONE: u64 = 1 << 13;

/// Nodes this close to the root are marked while a thread searches them, and their siblings'
/// threads search other children first (a shallow node's subtree is large; deeper, the check
/// costs more than the work it spares).
const BUSY_DEPTH: u32 = 4;

/// The nodes being searched by some thread of a parallel search, by a hash of their keys, so
/// that another thread searches their siblings first (ABDADA's deferral). A collision only
/// defers a child needlessly.
#[derive(Debug)]
struct Busy(Vec<AtomicU64>);

impl Busy {
    fn new() -> Busy {
        Busy(std::iter::repeat_with(AtomicU64::default).take(1 << 12).collect())
    }

    /// A key's slot and its mark there (never 0, which marks a free slot).
    fn slot(&self, key: Node) -> (&AtomicU64, u64) {
        let h = ((key as u64) ^ ((key >> 64) as u64).rotate_left(23))
            .wrapping_mul(0x9e37_79b9_7f4a_7c15);
        (&self.0[(h >> 52) as usize], h | 1)
    }

    /// Marks `key` as being searched; false if its slot was taken.
    fn enter(&self, key: Node) -> bool {
        let (slot, mark) = self.slot(key);
        slot.compare_exchange(0, mark, Relaxed, Relaxed).is_ok()
    }

    fn leave(&self, key: Node) {
        let (slot, mark) = self.slot(key);
        let _ = slot.compare_exchange(mark, 0, Relaxed, Relaxed);
    }

    fn holds(&self, key: Node) -> bool {
        let (slot, mark) = self.slot(key);
        slot.load(Relaxed) == mark
    }
}

impl<G: Game + ?Sized> std::fmt::Debug for AlphaBeta<'_, G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AlphaBeta")
            .field("table", &self.table.used())
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
            table: Arc::new(Table::new(bits)),
            nodes: 0,
            buffers: Vec::new(),
            stop: None,
            budget: u64::MAX,
            shared: false,
            rounds: 0,
            busy: None,
            prover: None,
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

    /// Rounds of [`AlphaBeta::value_parallel`] on several threads so far (none where one
    /// thread was enough).
    pub fn parallel_rounds(&self) -> u32 {
        self.rounds
    }

    /// Positions in the table (while it still grows).
    pub fn table_len(&self) -> usize {
        self.table.used()
    }

    /// Empties the table (a shared one is left to the others).
    pub fn clear(&mut self) {
        self.table = Arc::new(Table::new(self.table.max_bits));
        self.shared = false;
    }

    /// A search for another thread, sharing this one's table as it is (which then no longer
    /// grows) and its stop.
    fn sharing(&self) -> Self {
        AlphaBeta {
            game: self.game,
            kernel: self.kernel,
            table: Arc::clone(&self.table),
            nodes: 0,
            buffers: Vec::new(),
            stop: self.stop,
            budget: u64::MAX,
            shared: true,
            rounds: 0,
            busy: None,
            prover: None,
        }
    }

    /// The value and remoteness of `p`.
    pub fn value(&mut self, p: Position) -> Result<ValueRemoteness, SolveError> {
        if let Some(v) = self.game.primitive(p) {
            return Ok(ValueRemoteness::new(v, Remoteness(0)));
        }
        let node = self.node(p);
        // The value first (proven by the game's prover, or searched in the window around a
        // tie), then a win's or loss's remoteness in the window on its side.
        let sign = match self.proven(p, node)? {
            ControlFlow::Break(value) => return Ok(value),
            ControlFlow::Continue(Some(sign)) => sign,
            ControlFlow::Continue(None) => match self.search(node, -1, 1, 0)? {
                (0, tie) => return Ok(Self::value_of(0, tie)),
                (s, _) => s.signum(),
            },
        };
        self.side(node, sign)
    }

    /// The score of a node whose value's sign is known (a tie's remoteness searched too).
    fn side(&mut self, node: Node, sign: i32) -> Result<ValueRemoteness, SolveError> {
        let (score, tie) = match sign {
            0 => self.search(node, -1, 1, 0)?,
            s if s > 0 => self.search(node, 0, INFINITE, 0)?,
            _ => self.search(node, -INFINITE, 0, 0)?,
        };
        Ok(Self::value_of(score, tie))
    }

    /// The sign of `p`'s value by the game's prover (None for a game without one), or the value
    /// itself where that is all there is to know (a tie whose remoteness the game knows).
    fn proven(
        &mut self,
        p: Position,
        node: Node,
    ) -> Result<ControlFlow<ValueRemoteness, Option<i32>>, SolveError> {
        let Some(kernel) = self.kernel else { return Ok(ControlFlow::Continue(None)) };
        if self.prover.is_none() {
            self.prover = kernel.prover(PROVER_BITS);
        }
        let Some(prover) = self.prover.as_mut() else { return Ok(ControlFlow::Continue(None)) };
        let before = prover.nodes();
        let (stop, never) = (self.stop, || false);
        let stop: &dyn Fn() -> bool = match stop {
            Some(stop) => stop,
            None => &never,
        };
        let sign = prover.bound(p, -1, 1, stop).ok_or(SolveError::Stopped)?;
        self.nodes += prover.nodes() - before;
        Ok(match (sign, kernel.tie_remoteness(node)) {
            (0, Some(tie)) => ControlFlow::Break(Self::value_of(0, tie)),
            _ => ControlFlow::Continue(Some(i32::from(sign))),
        })
    }

    /// [`AlphaBeta::value`] with `threads` threads once the search is long: the threads share
    /// the table and search the same tree, each skipping the nodes another is searching while
    /// there are others to search (ABDADA); the first to finish gives the answer.
    pub fn value_parallel(
        &mut self,
        p: Position,
        threads: usize,
    ) -> Result<ValueRemoteness, SolveError> {
        if threads <= 1 || self.game.primitive(p).is_some() {
            return self.value(p);
        }
        // The value proven first (on this thread); then only a remoteness is searched.
        let node = self.node(p);
        let sign = match self.proven(p, node)? {
            ControlFlow::Break(value) => return Ok(value),
            ControlFlow::Continue(sign) => sign,
        };
        self.budget = self.nodes.saturating_add(ALONE);
        let alone = match sign {
            Some(sign) => self.side(node, sign),
            None => self.value(p),
        };
        let spent = self.nodes >= self.budget;
        self.budget = u64::MAX;
        match alone {
            Err(SolveError::Stopped) if spent => {}
            answer => return answer,
        }
        // In rounds: a shared table cannot grow, so each round's threads stop once they have
        // filled it, and the next round's is four times larger (the work finished is kept).
        loop {
            if let Some(table) = Arc::get_mut(&mut self.table) {
                table.grow_by(2);
            }
            let round = (!self.table.full_size()).then(|| 2 * self.table.len() as u64);
            match self.parallel_round(p, sign, threads, round) {
                Err(SolveError::Stopped) if round.is_some() && !self.stopped() => {}
                answer => return answer,
            }
        }
    }

    /// Whether the search was asked to stop.
    fn stopped(&self) -> bool {
        self.stop.is_some_and(|stop| stop())
    }

    /// A round of [`AlphaBeta::value_parallel`]: its threads each give up after `budget` nodes
    /// (searching only the remoteness where the value's `sign` is known).
    fn parallel_round(
        &mut self,
        p: Position,
        sign: Option<i32>,
        threads: usize,
        budget: Option<u64>,
    ) -> Result<ValueRemoteness, SolveError> {
        self.rounds += 1;
        let helpers: Vec<AlphaBeta<'g, G>> = (0..threads).map(|_| self.sharing()).collect();
        let (busy, outer) = (Arc::new(Busy::new()), self.stop);
        let done = AtomicBool::new(false);
        let stop = || done.load(Relaxed) || outer.is_some_and(|stop| stop());
        let answer = Mutex::new(None);
        let nodes = AtomicU64::new(0);
        std::thread::scope(|scope| {
            for helper in helpers {
                let mut search = AlphaBeta {
                    stop: Some(&stop),
                    busy: Some(busy.clone()),
                    budget: budget.unwrap_or(u64::MAX),
                    ..helper
                };
                let (done, answer, nodes) = (&done, &answer, &nodes);
                scope.spawn(move || {
                    let found = match sign {
                        Some(sign) => search.side(search.node(p), sign),
                        None => search.value(p),
                    };
                    nodes.fetch_add(search.nodes, Relaxed);
                    // A thread stopped because another finished has nothing to say; an answer
                    // that comes after a thread ran out of budget is still the answer.
                    let stopped = matches!(found, Err(SolveError::Stopped));
                    if !(stopped && done.load(Relaxed)) {
                        let mut answer = answer.lock().unwrap_or_else(|e| e.into_inner());
                        if answer.as_ref().is_none_or(|a| matches!(a, Err(SolveError::Stopped))) {
                            *answer = Some(found);
                        }
                        done.store(true, Relaxed);
                    }
                });
            }
        });
        self.nodes += nodes.into_inner();
        answer.into_inner().unwrap_or_else(|e| e.into_inner()).unwrap_or(Err(SolveError::Stopped))
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

    /// The value alone of `p` as a score (-1 a loss, 0 a tie, 1 a win for the player to move),
    /// searched in the window `(alpha, beta)` of those scores: exact inside it, else a bound on
    /// the side it falls (a [`crate::SplitProof`]'s question).
    pub fn bound(&mut self, p: Position, alpha: i8, beta: i8) -> Result<i8, SolveError> {
        if let Some(v) = self.game.primitive(p) {
            return Ok(v.score());
        }
        let node = self.node(p);
        // Every loss scores below -1 and every win above 1: the signs bound as the scores do.
        let (score, _) = self.search(node, i32::from(alpha), i32::from(beta), 0)?;
        Ok(score.signum() as i8)
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
        if self.nodes & 4095 == 0
            && (self.nodes >= self.budget || self.stop.is_some_and(|stop| stop()))
        {
            return Err(SolveError::Stopped);
        }
        let d = depth as usize;
        if self.buffers.len() <= d {
            self.buffers.resize_with(d + 1, Vec::new);
        }
        let mut children = std::mem::take(&mut self.buffers[d]);
        children.clear();
        self.children(node, &mut children);
        // Marked and unmarked through the reference: cloning the `Arc` at every node would
        // make the threads write its shared count.
        let marked = depth < BUSY_DEPTH && self.busy.as_ref().is_some_and(|b| b.enter(key));
        let found = self.search_children(node, &children, alpha, beta, first, depth);
        if let Some(busy) = self.busy.as_ref().filter(|_| marked) {
            busy.leave(key);
        }
        self.buffers[d] = children;
        let (best, tie, best_child, alpha0) = found?;
        let bound = Bound::of(best, alpha0, beta) as u8;
        let work = (64 - (self.nodes - nodes_before).leading_zeros()) as u8;
        let entry = Entry { score: best as i16, tie, best: best_child as u16, bound, work };
        if !self.shared && self.table.wants_growth() {
            if let Some(table) = Arc::get_mut(&mut self.table) {
                table.grow_by(1);
            }
        }
        self.table.put(key, entry, !self.shared);
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
            // The child that was best when this key was last searched, then the rest in order;
            // in a parallel search, a child another thread is searching after the others.
            let first = first.filter(|&i| i < children.len() && children[i].1.is_none());
            let order = first.into_iter().chain((0..children.len()).filter(|&i| Some(i) != first));
            let defer = depth + 1 < BUSY_DEPTH && self.busy.is_some();
            let (mut later, mut searched) = (Vec::new(), 0);
            let mut step = |this: &mut Self, i: usize| -> Result<bool, SolveError> {
                // The child's window, one wider on each side than the parent's maps to.
                let (lo, hi) = (from_parent(beta) - 1, from_parent(alpha) + 1);
                let (s, t) =
                    this.search(children[i].0, lo.max(-INFINITE), hi.min(INFINITE), depth + 1)?;
                if to_parent(s) > best {
                    (best, tie, best_child) = (to_parent(s), t + 1, i);
                }
                alpha = alpha.max(best);
                Ok(alpha >= beta)
            };
            let mut cut = false;
            for i in order {
                if children[i].1.is_some() {
                    continue;
                }
                if searched > 0
                    && defer
                    && self.busy.as_ref().is_some_and(|b| b.holds(self.key(children[i].0)))
                {
                    later.push(i);
                    continue;
                }
                searched += 1;
                if step(self, i)? {
                    cut = true;
                    break;
                }
            }
            if !cut {
                for i in later {
                    if step(self, i)? {
                        break;
                    }
                }
            }
        }
        Ok((best, tie, best_child, alpha0))
    }
}
