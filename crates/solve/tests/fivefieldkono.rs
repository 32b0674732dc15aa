//! Five Field Kono: the engine against a plain round-by-round solver written here on its own board
//! representation (4x4 board, all three stuck rules, every reachable position), and, behind
//! `PERFECTPLAY_FULL=1`, the full 5x5 game against 000's published tables.

use std::collections::HashMap;

use perfectplay_core::{Game, Position, Remoteness, Value, ValueRemoteness};
use perfectplay_games::FiveFieldKono;
use perfectplay_solve::{analyze, solve, NoProgress, SolveOptions};

/// Board: bit `y * n + x` (y = 0 at the top), `x` pebbles, `o` pebbles, `o` to move.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct State {
    x: u32,
    o: u32,
    o_to_move: bool,
}

struct Reference {
    n: i32,
    stuck: Value,
    states: Vec<State>,
    children: Vec<Vec<usize>>,
}

impl Reference {
    fn homes(n: i32) -> (u32, u32) {
        let bit = |x: i32, y: i32| 1u32 << (y * n + x);
        let mut x_home = bit(0, n - 2) | bit(n - 1, n - 2);
        let mut o_home = bit(0, 1) | bit(n - 1, 1);
        for i in 0..n {
            x_home |= bit(i, n - 1);
            o_home |= bit(i, 0);
        }
        (x_home, o_home)
    }

    /// `Some(value)` at the end of the game, from the view of the player to move.
    fn primitive(&self, s: State) -> Option<Value> {
        let (x_home, o_home) = Self::homes(self.n);
        let (their, my_home) = if s.o_to_move { (s.x, o_home) } else { (s.o, x_home) };
        if their & my_home == my_home {
            return Some(Value::Lose);
        }
        self.moves(s).is_empty().then_some(self.stuck)
    }

    fn moves(&self, s: State) -> Vec<State> {
        let n = self.n;
        let mine = if s.o_to_move { s.o } else { s.x };
        let mut out = Vec::new();
        for y in 0..n {
            for x in 0..n {
                if mine >> (y * n + x) & 1 == 0 {
                    continue;
                }
                for (dx, dy) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
                    let (tx, ty) = (x + dx, y + dy);
                    if tx < 0 || ty < 0 || tx >= n || ty >= n {
                        continue;
                    }
                    let to = 1u32 << (ty * n + tx);
                    if (s.x | s.o) & to != 0 {
                        continue;
                    }
                    let moved = (mine & !(1u32 << (y * n + x))) | to;
                    out.push(if s.o_to_move {
                        State { x: s.x, o: moved, o_to_move: false }
                    } else {
                        State { x: moved, o: s.o, o_to_move: true }
                    });
                }
            }
        }
        out
    }

    fn new(n: i32, stuck: Value) -> Reference {
        let (x_home, o_home) = Self::homes(n);
        let mut r = Reference { n, stuck, states: Vec::new(), children: Vec::new() };
        let mut index: HashMap<State, usize> = HashMap::new();
        let start = State { x: x_home, o: o_home, o_to_move: false };
        index.insert(start, 0);
        r.states.push(start);
        let mut next = 0;
        while next < r.states.len() {
            let s = r.states[next];
            let mut kids = Vec::new();
            if r.primitive(s).is_none() {
                for c in r.moves(s) {
                    let k = *index.entry(c).or_insert_with(|| {
                        r.states.push(c);
                        r.states.len() - 1
                    });
                    kids.push(k);
                }
            }
            r.children.push(kids);
            next += 1;
        }
        r
    }

    /// Round `k` decides the positions of remoteness `k`: wins and losses first, then ties;
    /// whatever is left is a draw.
    fn solve(&self) -> Vec<(Value, u16)> {
        let m = self.states.len();
        let mut value: Vec<Option<(Value, u16)>> =
            self.states.iter().map(|&s| self.primitive(s).map(|v| (v, 0))).collect();
        for k in 1.. {
            let mut changed = Vec::new();
            for i in 0..m {
                if value[i].is_some() {
                    continue;
                }
                let kids: Vec<Option<(Value, u16)>> =
                    self.children[i].iter().map(|&c| value[c]).collect();
                if kids.iter().any(|v| *v == Some((Value::Lose, k - 1))) {
                    changed.push((i, (Value::Win, k)));
                } else if kids.iter().all(|v| matches!(v, Some((Value::Win, _))))
                    && kids.iter().any(|v| *v == Some((Value::Win, k - 1)))
                {
                    changed.push((i, (Value::Lose, k)));
                }
            }
            if changed.is_empty() && !value.iter().any(|v| matches!(v, Some((_, r)) if *r >= k)) {
                break;
            }
            for (i, v) in changed {
                value[i] = Some(v);
            }
        }
        for k in 1.. {
            let mut changed = Vec::new();
            for i in 0..m {
                if value[i].is_none()
                    && self.children[i].iter().any(|&c| value[c] == Some((Value::Tie, k - 1)))
                {
                    changed.push(i);
                }
            }
            if changed.is_empty()
                && !value.iter().any(|v| matches!(v, Some((Value::Tie, r)) if *r >= k))
            {
                break;
            }
            for i in changed {
                value[i] = Some((Value::Tie, k));
            }
        }
        value.into_iter().map(|v| v.unwrap_or((Value::Draw, 0))).collect()
    }

    fn text(&self, s: State) -> String {
        let n = self.n;
        let rows: Vec<String> = (0..n)
            .map(|y| {
                (0..n)
                    .map(|x| {
                        let b = 1u32 << (y * n + x);
                        if s.x & b != 0 {
                            'x'
                        } else if s.o & b != 0 {
                            'o'
                        } else {
                            '.'
                        }
                    })
                    .collect()
            })
            .collect();
        format!("{} {}", rows.join("/"), if s.o_to_move { 'o' } else { 'x' })
    }
}

#[test]
fn small_board_matches_a_plain_solver_everywhere() {
    for (variant, stuck) in [
        ("4x4-regular", Value::Tie),
        ("4x4-lose-if-stuck", Value::Lose),
        ("4x4-win-if-stuck", Value::Win),
    ] {
        let game = FiveFieldKono::from_variant(variant).unwrap();
        let solution = solve(&game, SolveOptions::default(), &NoProgress, None).unwrap();
        let reference = Reference::new(4, stuck);
        let expected = reference.solve();
        let mut counts: HashMap<ValueRemoteness, u64> = HashMap::new();
        for (s, &(v, r)) in reference.states.iter().zip(&expected) {
            let p = game.parse_position(&reference.text(*s)).unwrap();
            let want = ValueRemoteness::new(v, Remoteness(r));
            assert_eq!(solution.get(&game, p), Some(want), "{variant} {}", reference.text(*s));
            *counts.entry(want).or_default() += 1;
        }
        // The analysis counts the same reachable positions.
        let analysis = analyze(&game, &solution, &NoProgress).unwrap();
        assert_eq!(analysis.total(), reference.states.len() as u64);
        for row in analysis.rows() {
            assert_eq!(
                counts.get(&row.value).copied(),
                Some(row.count),
                "{variant} {:?}",
                row.value
            );
        }
    }
}

/// Value-remoteness of the best move by 003 section 2.1, from the children's values.
fn best_over_children(
    game: &dyn Game,
    p: Position,
    value: impl Fn(Position) -> ValueRemoteness,
) -> ValueRemoteness {
    let mut children = Vec::new();
    game.children(p, &mut children);
    children.into_iter().map(|c| value(c).to_parent()).max().unwrap()
}

#[test]
fn small_board_values_are_best_over_children() {
    let game = FiveFieldKono::from_variant("4x4-regular").unwrap();
    let solution = solve(&game, SolveOptions::default(), &NoProgress, None).unwrap();
    let size = 2 * 560 * 560;
    for p in (0..size).step_by(7).map(Position) {
        let v = solution.get(&game, p).unwrap();
        match game.primitive(p) {
            Some(prim) => assert_eq!(v, ValueRemoteness::new(prim, Remoteness(0))),
            None => {
                assert_eq!(v, best_over_children(&game, p, |c| solution.get(&game, c).unwrap()))
            }
        }
    }
}
