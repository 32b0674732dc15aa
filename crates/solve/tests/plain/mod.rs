//! A plain solver for known-answer tests, sharing nothing with the engine: a game given by two
//! closures over the test's own state type (the value of a finished state, the states one move
//! away) is discovered breadth-first from its start, then valued round by round: round `k`
//! settles the states of remoteness `k` (a win if some child is a loss of remoteness `k - 1`; a
//! loss if every child is a win and the slowest has remoteness `k - 1`); whatever no round
//! settles is a draw. Wins, losses and draws only: the games tested with it have no ties.

use std::collections::{BTreeMap, HashMap};
use std::hash::Hash;

use perfectplay_core::{Game, Remoteness, Value, ValueRemoteness};
use perfectplay_solve::{analyze, Analysis, NoProgress, Solution};

/// Every state reachable from the start, with its value and remoteness (0 for draws).
pub struct Plain<S> {
    /// The reachable states, the start first.
    pub states: Vec<S>,
    /// Their values, in the same order.
    pub values: Vec<(Value, u16)>,
}

impl<S: Clone + Eq + Hash> Plain<S> {
    /// Discovers and solves the game.
    pub fn solve(
        start: S,
        primitive: impl Fn(&S) -> Option<Value>,
        children: impl Fn(&S) -> Vec<S>,
    ) -> Plain<S> {
        let mut states = vec![start.clone()];
        let mut index: HashMap<S, usize> = HashMap::from([(start, 0)]);
        let mut edges: Vec<Vec<usize>> = Vec::new();
        let mut value: Vec<Option<(Value, u16)>> = Vec::new();
        let mut next = 0;
        while next < states.len() {
            let s = states[next].clone();
            let end = primitive(&s);
            assert!(end != Some(Value::Tie) && end != Some(Value::Draw), "wins and losses only");
            let mut kids = Vec::new();
            if end.is_none() {
                for c in children(&s) {
                    let k = *index.entry(c.clone()).or_insert_with(|| {
                        states.push(c);
                        states.len() - 1
                    });
                    kids.push(k);
                }
                assert!(!kids.is_empty(), "a state without moves must be finished");
            }
            edges.push(kids);
            value.push(end.map(|v| (v, 0)));
            next += 1;
        }
        for k in 1u16.. {
            let mut settled = Vec::new();
            for (i, kids) in edges.iter().enumerate() {
                if value[i].is_some() {
                    continue;
                }
                let kid = |c: &usize| value[*c];
                if kids.iter().any(|c| kid(c) == Some((Value::Lose, k - 1))) {
                    settled.push((i, (Value::Win, k)));
                } else if kids.iter().all(|c| matches!(kid(c), Some((Value::Win, _))))
                    && kids.iter().any(|c| kid(c) == Some((Value::Win, k - 1)))
                {
                    settled.push((i, (Value::Lose, k)));
                }
            }
            if settled.is_empty() && !value.iter().any(|v| matches!(v, Some((_, r)) if *r >= k)) {
                break;
            }
            for (i, v) in settled {
                value[i] = Some(v);
            }
        }
        let values = value.into_iter().map(|v| v.unwrap_or((Value::Draw, 0))).collect();
        Plain { states, values }
    }

    /// The number of reachable states per value and remoteness.
    pub fn counts(&self) -> BTreeMap<(&'static str, u16), u64> {
        let mut out = BTreeMap::new();
        for &(v, r) in &self.values {
            *out.entry((v.name(), r)).or_default() += 1;
        }
        out
    }

    /// Checks a game's solution against this plain solve, state by state (each written by
    /// `text` for the game to parse): the same value and remoteness; and its analysis: the same
    /// counts per value and remoteness. Returns the analysis; `label` names the case in failures.
    #[allow(dead_code)] // reason: each test binary compiles this module; not all of them use it
    pub fn check<G: Game + ?Sized>(
        &self,
        game: &G,
        solution: &Solution,
        text: impl Fn(&S) -> String,
        label: &str,
    ) -> Analysis {
        for (s, &(v, r)) in self.states.iter().zip(&self.values) {
            let p = game.parse_position(&text(s)).unwrap();
            let want = ValueRemoteness::new(v, Remoteness(r));
            assert_eq!(solution.get(game, p), Some(want), "{label} {}", text(s));
        }
        let analysis = analyze(game, solution, &NoProgress).unwrap();
        let got: BTreeMap<(&str, u16), u64> = analysis
            .rows()
            .map(|row| ((row.value.value().name(), row.value.remoteness_or_zero()), row.count))
            .collect();
        assert_eq!(got, self.counts(), "{label}");
        analysis
    }
}
