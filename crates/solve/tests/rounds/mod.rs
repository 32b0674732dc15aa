//! A plain reference solver for the game tests' own state spaces, independent of the engine: a
//! search from the start over states of the test's own making, then round `k` decides the
//! positions of remoteness `k` (wins and losses, then ties); whatever is left is a draw.

use std::collections::HashMap;
use std::hash::Hash;

use perfectplay_core::Value;

/// The states reachable from a start, each with its primitive value and its children's indices.
pub struct Explored<S> {
    /// The states, the start first.
    pub states: Vec<S>,
    /// `Some` where the game is over, from the view of the player to move.
    pub primitive: Vec<Option<Value>>,
    /// The indices of each state's children (none at a primitive).
    pub children: Vec<Vec<usize>>,
}

impl<S: Copy + Eq + Hash> Explored<S> {
    /// Every state reachable from `start` by `moves`, which are not asked at a primitive.
    pub fn new(
        start: S,
        primitive: impl Fn(S) -> Option<Value>,
        moves: impl Fn(S) -> Vec<S>,
    ) -> Explored<S> {
        let mut index: HashMap<S, usize> = HashMap::from([(start, 0)]);
        let mut e = Explored { states: vec![start], primitive: Vec::new(), children: Vec::new() };
        let mut next = 0;
        while next < e.states.len() {
            let s = e.states[next];
            let p = primitive(s);
            let mut kids = Vec::new();
            if p.is_none() {
                for c in moves(s) {
                    let k = *index.entry(c).or_insert_with(|| {
                        e.states.push(c);
                        e.states.len() - 1
                    });
                    kids.push(k);
                }
            }
            e.primitive.push(p);
            e.children.push(kids);
            next += 1;
        }
        e
    }

    /// Value and remoteness of every state: win as fast as possible, lose as slowly as possible,
    /// else tie as fast as possible; a draw (remoteness 0) where nobody can force an end.
    pub fn solve(&self) -> Vec<(Value, u16)> {
        let n = self.states.len();
        let mut value: Vec<Option<(Value, u16)>> =
            self.primitive.iter().map(|p| p.map(|v| (v, 0))).collect();
        for k in 1u16.. {
            let mut changed = Vec::new();
            for i in (0..n).filter(|&i| value[i].is_none()) {
                let kids = &self.children[i];
                if kids.iter().any(|&c| value[c] == Some((Value::Lose, k - 1))) {
                    changed.push((i, (Value::Win, k)));
                } else if kids.iter().all(|&c| matches!(value[c], Some((Value::Win, _))))
                    && kids.iter().any(|&c| value[c] == Some((Value::Win, k - 1)))
                {
                    changed.push((i, (Value::Lose, k)));
                }
            }
            if changed.is_empty() {
                break;
            }
            for (i, v) in changed {
                value[i] = Some(v);
            }
        }
        for k in 1u16.. {
            let changed: Vec<usize> = (0..n)
                .filter(|&i| {
                    value[i].is_none()
                        && self.children[i].iter().any(|&c| value[c] == Some((Value::Tie, k - 1)))
                })
                .collect();
            if changed.is_empty() {
                break;
            }
            for i in changed {
                value[i] = Some((Value::Tie, k));
            }
        }
        value.into_iter().map(|v| v.unwrap_or((Value::Draw, 0))).collect()
    }
}

impl<S: Copy> Explored<S> {
    /// Checks every explored state's value and remoteness (`values`, from [`Explored::solve`])
    /// against the engine's `solution`, reading each state as a position of `game` through its
    /// text form `text`.
    pub fn check_solution<G: perfectplay_core::Game + ?Sized>(
        &self,
        values: &[(Value, u16)],
        game: &G,
        solution: &perfectplay_solve::Solution,
        text: impl Fn(S) -> String,
    ) {
        use perfectplay_core::{Remoteness, ValueRemoteness};
        for (&s, &(v, k)) in self.states.iter().zip(values) {
            let p = game.parse_position(&text(s)).unwrap_or_else(|e| panic!("{e}"));
            let want = ValueRemoteness::new(v, Remoteness(k));
            assert_eq!(solution.get(game, p), Some(want), "{}", text(s));
        }
    }
}
