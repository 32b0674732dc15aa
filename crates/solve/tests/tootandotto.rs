//! Toot and Otto against an independent plain solver written here: its own board of columns of
//! letters, its own supplies, its own word search, memoized minimax with remoteness. On the 4x4
//! board (4 T and 4 O each) every reachable position is compared; on 4x5 and 5x4 the positions
//! along random games (ignored: the engine's solves take a minute).

mod common;

use std::collections::{HashMap, HashSet};

use perfectplay_core::{Game, GameExt, Value};
use perfectplay_games::TootAndOtto;
use perfectplay_solve::{analyze, solve, NoProgress, SolveOptions};

const T: u8 = 1;
const O: u8 = 2;

/// Columns of letters from the bottom, and each player's T's and O's left.
#[derive(Clone, PartialEq, Eq, Hash)]
struct State {
    cols: Vec<Vec<u8>>,
    left: [[u8; 2]; 2],
}

struct Reference {
    w: usize,
    h: usize,
    /// Values by [`Reference::key`].
    memo: HashMap<u64, (Value, u16)>,
}

impl Reference {
    fn at(&self, s: &State, x: i32, y: i32) -> u8 {
        if x < 0 || y < 0 || x >= self.w as i32 || y >= self.h as i32 {
            return 0;
        }
        s.cols[x as usize].get(y as usize).copied().unwrap_or(0)
    }

    fn spelled(&self, s: &State, word: [u8; 4]) -> bool {
        (0..self.w as i32).any(|x| {
            (0..self.h as i32).any(|y| {
                [(1, 0), (0, 1), (1, 1), (1, -1)].iter().any(|&(dx, dy)| {
                    (0..4).all(|i| self.at(s, x + i * dx, y + i * dy) == word[i as usize])
                })
            })
        })
    }

    /// The state as a number: the letters in base 3, the column heights, the letters left.
    fn key(&self, s: &State) -> u64 {
        let letters = s.cols.iter().flatten().fold(0, |k, &c| k * 3 + u64::from(c));
        let heights = s.cols.iter().fold(0, |k, c| k * 8 + c.len() as u64);
        let left = s.left.iter().flatten().fold(0, |k, &n| k * 8 + u64::from(n));
        (letters << (3 * self.w) | heights) << 12 | left
    }

    fn pieces(s: &State) -> usize {
        s.cols.iter().map(Vec::len).sum()
    }

    /// 0 for TOOT (the first player), 1 for OTTO.
    fn mover(s: &State) -> usize {
        Self::pieces(s) % 2
    }

    fn over(&self, s: &State) -> Option<Value> {
        let toot = self.spelled(s, [T, O, O, T]);
        let otto = self.spelled(s, [O, T, T, O]);
        let mine = if Self::mover(s) == 0 { toot } else { otto };
        if toot && otto {
            Some(Value::Tie)
        } else if toot || otto {
            Some(if mine { Value::Win } else { Value::Lose })
        } else if Self::pieces(s) == self.w * self.h {
            Some(Value::Tie)
        } else {
            None
        }
    }

    /// Children in the engine's move order: per column, T then O.
    fn children(&self, s: &State) -> Vec<State> {
        let me = Self::mover(s);
        let mut out = Vec::new();
        for x in 0..self.w {
            for (k, letter) in [T, O].into_iter().enumerate() {
                if s.cols[x].len() < self.h && s.left[me][k] > 0 {
                    let mut c = s.clone();
                    c.cols[x].push(letter);
                    c.left[me][k] -= 1;
                    out.push(c);
                }
            }
        }
        out
    }

    fn solve(&mut self, s: &State) -> (Value, u16) {
        if let Some(&v) = self.memo.get(&self.key(s)) {
            return v;
        }
        let result = if let Some(v) = self.over(s) {
            (v, 0)
        } else {
            let kids: Vec<(Value, u16)> = self.children(s).iter().map(|c| self.solve(c)).collect();
            common::perfect_play(&kids)
        };
        self.memo.insert(self.key(s), result);
        result
    }

    fn start(&self) -> State {
        let n = (self.w * self.h / 4) as u8;
        State { cols: vec![Vec::new(); self.w], left: [[n, n]; 2] }
    }

    /// The game's text form: rows from the top, then each player's letters left.
    fn text(&self, s: &State) -> String {
        let rows: Vec<String> = (0..self.h)
            .rev()
            .map(|y| {
                (0..self.w)
                    .map(|x| ['-', 't', 'o'][self.at(s, x as i32, y as i32) as usize])
                    .collect()
            })
            .collect();
        let [[t1, o1], [t2, o2]] = s.left;
        format!("{} t{t1}o{o1} t{t2}o{o2}", rows.join("/"))
    }
}

#[test]
fn four_by_four_agrees_everywhere() {
    let game = TootAndOtto::new(4, 4).unwrap();
    let solution = solve(&game, SolveOptions::default(), &NoProgress, None).unwrap();
    let mut reference = Reference { w: 4, h: 4, memo: HashMap::new() };
    let mut seen = HashSet::new();
    let mut stack = vec![reference.start()];
    while let Some(s) = stack.pop() {
        if !seen.insert(reference.key(&s)) {
            continue;
        }
        let p = game.parse_position(&reference.text(&s)).unwrap();
        let got = solution.get(&game, p).expect("reachable position solved");
        assert_eq!(
            (got.value(), got.remoteness_or_zero()),
            reference.solve(&s),
            "{}",
            reference.text(&s)
        );
        if reference.over(&s).is_none() {
            stack.extend(reference.children(&s));
        }
    }
    let analysis = analyze(&game, &solution, &NoProgress).unwrap();
    assert_eq!(analysis.total(), seen.len() as u64);
    let start = solution.get(&game, game.start()).unwrap();
    assert_eq!((start.value(), start.remoteness_or_zero()), reference.solve(&reference.start()));
    // Both solvers make the start a tie in 16 (the board fills).
    assert_eq!((start.value(), start.remoteness_or_zero()), (Value::Tie, 16));
}

fn check_random_games(w: usize, h: usize, from: usize) {
    let game = TootAndOtto::new(w, h).unwrap();
    let solution = solve(&game, SolveOptions::default(), &NoProgress, None).unwrap();
    let mut reference = Reference { w, h, memo: HashMap::new() };
    let mut next = perfectplay_core::xorshift(0x9e37_79b9_7f4a_7c15);
    for _ in 0..200 {
        let (mut s, mut p) = (reference.start(), game.start());
        for ply in 0.. {
            assert_eq!(game.position_to_string(p), reference.text(&s));
            if ply >= from {
                let got = solution.get(&game, p).unwrap();
                assert_eq!((got.value(), got.remoteness_or_zero()), reference.solve(&s));
            }
            if reference.over(&s).is_some() {
                break;
            }
            let (kids, moves) = (reference.children(&s), game.legal_moves(p));
            assert_eq!(kids.len(), moves.len());
            let k = (next() % kids.len() as u64) as usize;
            (s, p) = (kids[k].clone(), game.do_move(p, moves[k]));
        }
        if reference.memo.len() > 4_000_000 {
            reference.memo.clear();
        }
    }
}

#[test]
#[ignore = "4x5 and 5x4: the engine solves 14 and 37 million positions, about a minute"]
fn four_by_five_and_five_by_four_agree_along_random_games() {
    check_random_games(4, 5, 6);
    check_random_games(5, 4, 6);
}
