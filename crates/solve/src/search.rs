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

use perfectplay_core::{Game, GameExt, Position, Remoteness, SearchKernel, Value, ValueRemoteness};

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

/// A table entry: the score, how it bounds the true score, and a tie's remoteness.
#[derive(Clone, Copy, Debug)]
struct Entry {
    score: i32,
    bound: Bound,
    tie: u16,
    /// The child that gave the score (its place among the children), tried first next time.
    best: u16,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bound {
    Exact,
    /// The true score is at least this.
    Lower,
    /// The true score is at most this.
    Upper,
}

/// Live solving with alpha-beta pruning: the value and remoteness of a position of a loop-free
/// game whose ties all come at the same depth below any position (Quarto's: a tie is a full
/// board, so a tie at level `n` is a tie in `16 - n`; 003 3.8). Wins and losses are scored by
/// remoteness (a faster win scores higher, a slower loss scores higher), which makes the game
/// zero-sum, so pruning never changes a value or a win's or loss's remoteness. A tie's
/// remoteness is the one of the first tie met, which the assumption makes the only one; in a
/// game where ties come at different depths use [`Search`]. A game's [`SearchKernel`] supplies
/// the table's keys and the children with the values known without search; without one, keys
/// are canonical forms and only primitive children are known.
pub struct AlphaBeta<'g, G: Game + ?Sized> {
    game: &'g G,
    kernel: Option<&'g dyn SearchKernel>,
    table: HashMap<Position, Entry>,
    nodes: u64,
}

impl<G: Game + ?Sized> std::fmt::Debug for AlphaBeta<'_, G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AlphaBeta")
            .field("table", &self.table.len())
            .field("nodes", &self.nodes)
            .finish()
    }
}

impl<'g, G: Game + ?Sized> AlphaBeta<'g, G> {
    /// A search with an empty table.
    pub fn new(game: &'g G) -> Self {
        AlphaBeta { game, kernel: game.search_kernel(), table: HashMap::new(), nodes: 0 }
    }

    /// The same search without the game's [`SearchKernel`] (for checking one against the other).
    pub fn without_kernel(game: &'g G) -> Self {
        AlphaBeta { game, kernel: None, table: HashMap::new(), nodes: 0 }
    }

    /// Positions expanded so far (their children generated).
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Positions in the table.
    pub fn table_len(&self) -> usize {
        self.table.len()
    }

    /// Empties the table (its memory grows with every search).
    pub fn clear(&mut self) {
        self.table = HashMap::new();
    }

    /// The value and remoteness of `p`.
    pub fn value(&mut self, p: Position) -> Result<ValueRemoteness, SolveError> {
        if let Some(v) = self.game.primitive(p) {
            return Ok(ValueRemoteness::new(v, Remoteness(0)));
        }
        let (score, tie) = self.search(p, -INFINITE, INFINITE, 0)?;
        let r = |x: i32| Remoteness(x as u16);
        Ok(match score {
            0 => ValueRemoteness::new(Value::Tie, Remoteness(tie)),
            s if s > 0 => ValueRemoteness::new(Value::Win, r(BASE - s)),
            s => ValueRemoteness::new(Value::Lose, r(BASE + s)),
        })
    }

    /// The children of a non-primitive position with their values where known.
    fn children(&self, p: Position, out: &mut Vec<(Position, Option<ValueRemoteness>)>) {
        match self.kernel {
            Some(kernel) => kernel.search_children(p, out),
            None => {
                let mut children = Vec::new();
                self.game.children(p, &mut children);
                out.extend(children.into_iter().map(|c| {
                    (c, self.game.primitive(c).map(|v| ValueRemoteness::new(v, Remoteness(0))))
                }));
            }
        }
    }

    /// The score of a non-primitive position, exact where it lies strictly inside
    /// `(alpha, beta)`, else a bound on the side it falls (fail-soft).
    fn search(
        &mut self,
        p: Position,
        mut alpha: i32,
        mut beta: i32,
        depth: u32,
    ) -> Result<(i32, u16), SolveError> {
        if depth as i32 >= BASE - 2 {
            return Err(SolveError::Unsupported {
                what: "live solving deeper than 998 moves".into(),
            });
        }
        let key = match self.kernel {
            Some(kernel) => kernel.search_key(p),
            None => self.game.canonical(p),
        };
        let mut first = None;
        if let Some(e) = self.table.get(&key) {
            match e.bound {
                Bound::Exact => return Ok((e.score, e.tie)),
                Bound::Lower => alpha = alpha.max(e.score),
                Bound::Upper => beta = beta.min(e.score),
            }
            if alpha >= beta {
                return Ok((e.score, e.tie));
            }
            first = Some(usize::from(e.best));
        }
        self.nodes += 1;
        let mut children = Vec::new();
        self.children(p, &mut children);
        if children.is_empty() {
            return Err(SolveError::NoMoves { position: p });
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
        if best < top && alpha < beta {
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
        let bound = if best <= alpha0 {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.table.insert(key, Entry { score: best, bound, tie, best: best_child as u16 });
        Ok((best, tie))
    }
}
