//! A proof of a position's value (win, tie or lose, without remoteness) split into subproofs:
//! the positions a fixed number of moves below it, up to symmetry, each a question of its own
//! ("is it at least a tie?", "is it a win?") whose answer is kept as [`Bounds`]. A proof then
//! stops and resumes at subproof granularity, and its subproofs can be answered by different
//! processes or machines; [`SplitProof::combine`] checks that the answers kept cover the root,
//! walking the moves above the subproofs again from the rules.
//!
//! Scores are from the view of the player to move: -1 a loss, 0 a tie, 1 a win.

use std::collections::{HashMap, HashSet};

use perfectplay_core::{Bound, Game, GameExt, Position, Value};

/// What is known of a position's score: at least `lo`, at most `hi`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    pub lo: i8,
    pub hi: i8,
}

impl Bounds {
    /// Nothing known.
    pub const UNKNOWN: Bounds = Bounds { lo: -1, hi: 1 };

    /// A known score.
    pub fn exact(score: i8) -> Bounds {
        Bounds { lo: score, hi: score }
    }

    /// What a fail-soft search in the window `(alpha, beta)` that returned `score` shows.
    pub fn from_search(score: i8, alpha: i8, beta: i8) -> Bounds {
        match Bound::of(score, alpha, beta) {
            Bound::Upper => Bounds { lo: -1, hi: score },
            Bound::Lower => Bounds { lo: score, hi: 1 },
            Bound::Exact => Bounds::exact(score),
        }
    }

    /// What both show.
    pub fn meet(self, other: Bounds) -> Bounds {
        Bounds { lo: self.lo.max(other.lo), hi: self.hi.min(other.hi) }
    }

    /// The value, once the bounds meet.
    pub fn value(self) -> Option<Value> {
        (self.lo == self.hi).then_some(Value::of_score(self.lo))
    }

    /// Whether they contradict each other (two answers that cannot both be true).
    pub fn is_empty(self) -> bool {
        self.lo > self.hi
    }

    /// The score a search in the window `(alpha, beta)` would return, if these bounds decide it
    /// (fail-soft: a bound on the side the score falls).
    fn decides(self, alpha: i8, beta: i8) -> Option<i8> {
        if self.lo == self.hi || self.lo >= beta {
            Some(self.lo)
        } else if self.hi <= alpha {
            Some(self.hi)
        } else {
            None
        }
    }
}

/// The root's bounds as combined from the subproofs' answers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Combined {
    pub root: Bounds,
    /// Subproofs answered (their value known, or bounded).
    pub answered: usize,
    /// Subproofs whose value is not known and could still change the root's bounds (none under a
    /// position the answers decide already), in the order of the walk.
    pub open: Vec<Position>,
}

/// A proof of `root`'s value split at the positions `depth` moves below it.
pub struct SplitProof<'g, G: Game + ?Sized> {
    game: &'g G,
    root: Position,
    depth: u32,
}

impl<G: Game + ?Sized> std::fmt::Debug for SplitProof<'_, G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SplitProof").field("root", &self.root).field("depth", &self.depth).finish()
    }
}

impl<'g, G: Game + ?Sized> SplitProof<'g, G> {
    pub fn new(game: &'g G, root: Position, depth: u32) -> Self {
        SplitProof { game, root, depth }
    }

    /// A position's children that are not primitive, up to symmetry (in the game's order, each
    /// class once), and the best score a primitive child gives the mover.
    fn children(&self, p: Position) -> (Vec<Position>, Option<i8>) {
        let mut children = Vec::new();
        self.game.children(p, &mut children);
        let mut primitive: Option<i8> = None;
        let mut out: Vec<Position> = Vec::new();
        for c in children {
            match self.game.primitive(c) {
                Some(v) => primitive = primitive.max(Some(-v.score())),
                None => {
                    let c = self.game.canonical(c);
                    if !out.contains(&c) {
                        out.push(c);
                    }
                }
            }
        }
        (out, primitive)
    }

    /// The subproofs: the positions `depth` moves below the root that are not primitive, up to
    /// symmetry, each once, in the order of a walk of the tree.
    pub fn subproofs(&self) -> Vec<Position> {
        let mut seen = HashSet::new();
        let mut out = Vec::new();
        self.collect(self.root, 0, &mut seen, &mut out);
        out
    }

    fn collect(&self, p: Position, d: u32, seen: &mut HashSet<Position>, out: &mut Vec<Position>) {
        if d == self.depth {
            let key = self.game.canonical(p);
            if seen.insert(key) {
                out.push(key);
            }
            return;
        }
        for c in self.children(p).0 {
            self.collect(c, d + 1, seen, out);
        }
    }

    /// The root's bounds from the answers in `known` (by canonical position), every move above
    /// the subproofs walked from the rules; the root is proven when they meet.
    pub fn combine(&self, known: &HashMap<Position, Bounds>) -> Combined {
        let mut answered = HashSet::new();
        let (root, open) = match self.game.primitive(self.root) {
            Some(v) => (Bounds::exact(v.score()), Vec::new()),
            None => self.bounds(self.root, 0, known, &mut answered),
        };
        let mut seen = HashSet::new();
        let open = open.into_iter().filter(|p| seen.insert(*p)).collect();
        Combined { root, answered: answered.len(), open }
    }

    /// A position's bounds, and the subproofs below it not known exactly that could change them.
    fn bounds(
        &self,
        p: Position,
        d: u32,
        known: &HashMap<Position, Bounds>,
        answered: &mut HashSet<Position>,
    ) -> (Bounds, Vec<Position>) {
        if d == self.depth {
            let key = self.game.canonical(p);
            let b = known.get(&key).copied();
            if b.is_some() {
                answered.insert(key);
            }
            let b = b.unwrap_or(Bounds::UNKNOWN);
            return (b, if b.value().is_none() { vec![key] } else { Vec::new() });
        }
        let (children, primitive) = self.children(p);
        let mut out = primitive.map_or(Bounds { lo: -1, hi: -1 }, Bounds::exact);
        let mut open = Vec::new();
        for c in children {
            let (b, below) = self.bounds(c, d + 1, known, answered);
            out = Bounds { lo: out.lo.max(-b.hi), hi: out.hi.max(-b.lo) };
            open.extend(below);
        }
        if out.value().is_some() {
            open.clear();
        }
        (out, open)
    }

    /// Proves the root: a walk of the tree above the subproofs with alpha-beta windows, which
    /// asks `answer` (a fail-soft search of a subproof in a window) only of the subproofs whose
    /// answers in `known` do not decide their question, and hands each new answer to `found`
    /// (met with what was known) before going on. Returns the root's score.
    pub fn prove<E>(
        &self,
        known: &mut HashMap<Position, Bounds>,
        answer: &mut dyn FnMut(Position, i8, i8) -> Result<i8, E>,
        found: &mut dyn FnMut(Position, Bounds) -> Result<(), E>,
    ) -> Result<i8, E> {
        match self.game.primitive(self.root) {
            Some(v) => Ok(v.score()),
            None => self.walk(self.root, 0, -1, 1, known, answer, found),
        }
    }

    /// The questions [`SplitProof::prove`] would ask next given the answers in `known`, each
    /// with its window, in the order of its walk: a subproof not answered yet is taken to score
    /// `guess` (within what is known of it), so that the windows of the questions after it are
    /// the ones that guess would need. An answer to any of them is true whatever the guess;
    /// a wrong guess costs only a question asked in a window the proof does not need. (What a
    /// manager hands out to many workers at once.)
    pub fn questions(
        &self,
        known: &HashMap<Position, Bounds>,
        guess: i8,
    ) -> Vec<(Position, i8, i8)> {
        let mut assumed = known.clone();
        let mut out = Vec::new();
        let mut ask = |p: Position, alpha: i8, beta: i8| {
            out.push((p, alpha, beta));
            let was = known.get(&p).copied().unwrap_or(Bounds::UNKNOWN);
            Ok::<_, std::convert::Infallible>(guess.clamp(was.lo, was.hi))
        };
        let _ = self.prove(&mut assumed, &mut ask, &mut |_, _| Ok(()));
        out
    }

    #[allow(clippy::too_many_arguments)]
    fn walk<E>(
        &self,
        p: Position,
        d: u32,
        mut alpha: i8,
        beta: i8,
        known: &mut HashMap<Position, Bounds>,
        answer: &mut dyn FnMut(Position, i8, i8) -> Result<i8, E>,
        found: &mut dyn FnMut(Position, Bounds) -> Result<(), E>,
    ) -> Result<i8, E> {
        if d == self.depth {
            let key = self.game.canonical(p);
            let was = known.get(&key).copied().unwrap_or(Bounds::UNKNOWN);
            if let Some(score) = was.decides(alpha, beta) {
                return Ok(score);
            }
            let score = answer(key, alpha, beta)?;
            let now = Bounds::from_search(score, alpha, beta).meet(was);
            known.insert(key, now);
            found(key, now)?;
            return Ok(score);
        }
        let (children, primitive) = self.children(p);
        let mut best = primitive.unwrap_or(-1);
        alpha = alpha.max(best);
        for c in children {
            if alpha >= beta {
                break;
            }
            let v = -self.walk(c, d + 1, -beta, -alpha, known, answer, found)?;
            best = best.max(v);
            alpha = alpha.max(best);
        }
        Ok(best)
    }
}
