//! Shift-Tac-Toe against an independent solver written here: its own model of the board (three
//! sliders of five slots, a window onto three of them), its own moves, and a plain round-by-round
//! retrograde solution of its own reachable graph (wins and losses by remoteness first, then ties
//! by distance to a tie, the rest draws), compared position by position with the engine.

use std::collections::{HashMap, VecDeque};

use perfectplay_core::{Game, Value};
use perfectplay_games::ShiftTacToe;
use perfectplay_solve::{analyze, solve, NoProgress, SolveOptions};

/// Per row (top first): its five slider slots (0 empty, 1 X, 2 O) and the first slot the window
/// shows (1 when centered); whose turn (1 X, 2 O).
#[derive(Clone, PartialEq, Eq, Hash)]
struct State {
    slots: [[u8; 5]; 3],
    window: [usize; 3],
    turn: u8,
}

impl State {
    fn cell(&self, row: usize, col: usize) -> u8 {
        self.slots[row][self.window[row] + col]
    }

    fn set(&mut self, row: usize, col: usize, v: u8) {
        self.slots[row][self.window[row] + col] = v;
    }

    fn line(&self, who: u8) -> bool {
        let lines = [
            [(0, 0), (0, 1), (0, 2)],
            [(1, 0), (1, 1), (1, 2)],
            [(2, 0), (2, 1), (2, 2)],
            [(0, 0), (1, 0), (2, 0)],
            [(0, 1), (1, 1), (2, 1)],
            [(0, 2), (1, 2), (2, 2)],
            [(0, 0), (1, 1), (2, 2)],
            [(0, 2), (1, 1), (2, 0)],
        ];
        lines.iter().any(|l| l.iter().all(|&(r, c)| self.cell(r, c) == who))
    }

    /// From the mover's view, if the game is over.
    fn over(&self) -> Option<Value> {
        match (self.line(self.turn), self.line(3 - self.turn)) {
            (true, true) => Some(Value::Tie),
            (true, false) => Some(Value::Win),
            (false, true) => Some(Value::Lose),
            _ => None,
        }
    }

    /// Slots outside the window are emptied, then pieces fall in the window's columns.
    fn tidy(&mut self) {
        for r in 0..3 {
            for s in 0..5 {
                if s < self.window[r] || s >= self.window[r] + 3 {
                    self.slots[r][s] = 0;
                }
            }
        }
        for _ in 0..2 {
            for r in (1..3).rev() {
                for c in 0..3 {
                    if self.cell(r, c) == 0 && self.cell(r - 1, c) != 0 {
                        let v = self.cell(r - 1, c);
                        self.set(r, c, v);
                        self.set(r - 1, c, 0);
                    }
                }
            }
        }
    }

    /// Children in the engine's move order: drops a to c, then per row left and right shifts.
    fn children(&self) -> Vec<State> {
        let mut out = Vec::new();
        for c in 0..3 {
            if self.cell(0, c) == 0 {
                let mut s = self.clone();
                let r = (0..3).rev().find(|&r| s.cell(r, c) == 0).unwrap();
                s.set(r, c, self.turn);
                s.turn = 3 - s.turn;
                out.push(s);
            }
        }
        for r in 0..3 {
            // Shifting the pieces left moves the window right along the slider.
            for (ok, step) in [(self.window[r] < 2, 1isize), (self.window[r] > 0, -1)] {
                if ok {
                    let mut s = self.clone();
                    s.window[r] = (s.window[r] as isize + step) as usize;
                    s.tidy();
                    s.turn = 3 - s.turn;
                    out.push(s);
                }
            }
        }
        out
    }

    /// The game's text form.
    fn text(&self) -> String {
        let rows: Vec<String> = (0..3)
            .map(|r| (0..3).map(|c| ['-', 'x', 'o'][self.cell(r, c) as usize]).collect())
            .collect();
        let sliders: String = self.window.iter().map(|&w| ['r', 'c', 'l'][w]).collect();
        format!("{} {sliders} {}", rows.join("/"), ['x', 'o'][self.turn as usize - 1])
    }
}

/// Every reachable state's (value, remoteness): wins and losses round by round (remoteness n is
/// settled from remoteness n - 1), then ties by their distance to a tie, then draws.
fn retrograde(start: &State) -> HashMap<State, (Value, u16)> {
    let mut index = HashMap::new();
    let mut states = vec![start.clone()];
    let mut queue = VecDeque::from([0usize]);
    index.insert(start.clone(), 0usize);
    let mut kids: Vec<Vec<usize>> = Vec::new();
    while let Some(i) = queue.pop_front() {
        let s = states[i].clone();
        let mut k = Vec::new();
        if s.over().is_none() {
            for c in s.children() {
                let j = *index.entry(c.clone()).or_insert_with(|| {
                    states.push(c);
                    queue.push_back(states.len() - 1);
                    states.len() - 1
                });
                k.push(j);
            }
        }
        if kids.len() <= i {
            kids.resize(i + 1, Vec::new());
        }
        kids[i] = k;
    }
    kids.resize(states.len(), Vec::new());
    let mut value: Vec<Option<(Value, u16)>> =
        states.iter().map(|s| s.over().map(|v| (v, 0))).collect();
    for phase in [false, true] {
        for n in 1u16.. {
            let before = value.clone();
            for i in 0..states.len() {
                if value[i].is_some() {
                    continue;
                }
                let ks: Vec<Option<(Value, u16)>> = kids[i].iter().map(|&j| before[j]).collect();
                value[i] = if !phase {
                    if ks.contains(&Some((Value::Lose, n - 1))) {
                        Some((Value::Win, n))
                    } else if ks.iter().all(|k| matches!(k, Some((Value::Win, _))))
                        && ks.contains(&Some((Value::Win, n - 1)))
                    {
                        Some((Value::Lose, n))
                    } else {
                        None
                    }
                } else {
                    ks.contains(&Some((Value::Tie, n - 1))).then_some((Value::Tie, n))
                };
            }
            if value == before {
                break;
            }
        }
    }
    states.into_iter().zip(value).map(|(s, v)| (s, v.unwrap_or((Value::Draw, 0)))).collect()
}

#[test]
fn shifttactoe_agrees_with_an_independent_retrograde_solver() {
    let game = ShiftTacToe::default();
    let solution = solve(&game, SolveOptions::default(), &NoProgress, None).unwrap();
    let start = State { slots: [[0; 5]; 3], window: [1; 3], turn: 1 };
    let values = retrograde(&start);
    for (s, &(v, r)) in &values {
        let p = game.parse_position(&s.text()).unwrap();
        let got = solution.get(&game, p).expect("reachable position solved");
        assert_eq!((got.value(), got.remoteness_or_zero()), (v, r), "{}", s.text());
    }
    let analysis = analyze(&game, &solution, &NoProgress).unwrap();
    assert_eq!(analysis.total(), values.len() as u64);
    // Both solvers: the first player wins in 13; some positions are draws (play can cycle).
    assert_eq!(values[&start], (Value::Win, 13));
    assert!(values.values().any(|v| v.0 == Value::Draw));
}
