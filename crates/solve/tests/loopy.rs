//! The engine on small declared game graphs with loops, ties and draws (dense position spaces),
//! with and without undo-moves, and the best-over-children property on random graphs and on
//! random reachable positions of the real games.

mod common;

use common::check_best_over_children;
use perfectplay_core::{
    Game, GameExt, Move, ParseError, Player, Position, PositionSpace, Remoteness, SizeClass,
    UndoMoves, Value, ValueRemoteness,
};
use perfectplay_games::{Konane, KonaneStart, TicTacToe};
use perfectplay_solve::{solve, NoProgress, Solution, SolveOptions};
use proptest::prelude::*;

/// A game given as a graph: `edges[p]` are the children of `p`; `primitive[p]` ends the game.
struct Graph {
    edges: Vec<Vec<u64>>,
    primitive: Vec<Option<Value>>,
    undo: bool,
}

impl Game for Graph {
    fn id(&self) -> &'static str {
        "graph"
    }
    fn name(&self) -> &'static str {
        "graph"
    }
    fn variant(&self) -> String {
        String::new()
    }
    fn start(&self) -> Position {
        Position(0)
    }
    fn primitive(&self, p: Position) -> Option<Value> {
        self.primitive[p.0 as usize]
    }
    fn moves(&self, p: Position, out: &mut Vec<Move>) {
        out.extend((0..self.edges[p.0 as usize].len()).map(|i| Move(i as u32)));
    }
    fn do_move(&self, p: Position, mv: Move) -> Position {
        Position(self.edges[p.0 as usize][mv.0 as usize])
    }
    fn to_move(&self, _p: Position) -> Player {
        Player::First
    }
    fn position_to_string(&self, p: Position) -> String {
        p.0.to_string()
    }
    fn parse_position(&self, text: &str) -> Result<Position, ParseError> {
        text.parse().map(Position).map_err(|_| ParseError::Malformed {
            what: "position",
            text: text.into(),
            expected: "a number".into(),
        })
    }
    fn move_to_string(&self, p: Position, mv: Move) -> String {
        self.edges[p.0 as usize][mv.0 as usize].to_string()
    }
    fn move_syntax(&self) -> String {
        "a number".into()
    }
    fn size_class(&self) -> SizeClass {
        SizeClass::Small
    }
    fn space(&self) -> PositionSpace<'_> {
        PositionSpace::Dense { size: self.edges.len() as u64 }
    }
    fn undo(&self) -> Option<&dyn UndoMoves> {
        self.undo.then_some(self as &dyn UndoMoves)
    }
}

impl UndoMoves for Graph {
    fn undo_moves(&self, p: Position, out: &mut Vec<Position>) {
        for (q, kids) in self.edges.iter().enumerate() {
            if self.primitive[q].is_none() && kids.contains(&p.0) {
                out.push(Position(q as u64));
            }
        }
    }
}

fn vr(v: Value, r: u16) -> ValueRemoteness {
    ValueRemoteness::new(v, Remoteness(r))
}

fn solve_graph(
    edges: Vec<Vec<u64>>,
    primitive: Vec<Option<Value>>,
    undo: bool,
) -> Vec<ValueRemoteness> {
    let g = Graph { edges, primitive, undo };
    let s = solve(&g, SolveOptions::default(), &NoProgress, None).unwrap();
    (0..g.edges.len() as u64).map(|p| s.get(&g, Position(p)).unwrap()).collect()
}

#[test]
fn declared_graphs_have_the_expected_values() {
    use Value::*;
    for undo in [true, false] {
        // 0 <-> 1, 1 -> 2 (lose): 1 wins in 1, 0 loses in 2.
        let v = solve_graph(vec![vec![1], vec![0, 2], vec![]], vec![None, None, Some(Lose)], undo);
        assert_eq!(v, [vr(Lose, 2), vr(Win, 1), vr(Lose, 0)]);
        // A cycle with no exit: draws.
        let v = solve_graph(vec![vec![1], vec![0]], vec![None, None], undo);
        assert_eq!(v, [ValueRemoteness::DRAW, ValueRemoteness::DRAW]);
        // 0 -> tie (1) or a draw cycle (2 <-> 3): a tie beats a draw.
        let v = solve_graph(
            vec![vec![1, 2], vec![], vec![3], vec![2]],
            vec![None, Some(Tie), None, None],
            undo,
        );
        assert_eq!(v[0], vr(Tie, 1));
        // 0 -> a win for the opponent (1 -> 2 lose) or a draw cycle: a draw beats a loss.
        let v = solve_graph(
            vec![vec![1, 3], vec![2], vec![], vec![4], vec![3]],
            vec![None, None, Some(Lose), None, None],
            undo,
        );
        assert_eq!(v[0], ValueRemoteness::DRAW);
        assert_eq!(v[1], vr(Win, 1));
        // Losing slowest: 0 -> 1 (win in 1) or 0 -> 3 (win in 3); 0 loses in 4.
        let v = solve_graph(
            vec![vec![1, 3], vec![2], vec![], vec![4], vec![5], vec![6], vec![]],
            vec![None, None, Some(Lose), None, None, None, Some(Lose)],
            undo,
        );
        assert_eq!(v[3], vr(Win, 3));
        assert_eq!(v[0], vr(Lose, 4));
        // Winning fastest through a loop: 0 -> 1 -> 0, 0 -> 2 (lose in 2), 1 -> 3 (lose 0).
        let v = solve_graph(
            vec![vec![1, 2], vec![0, 3], vec![4], vec![], vec![5], vec![]],
            vec![None, None, None, Some(Lose), None, Some(Lose)],
            undo,
        );
        assert_eq!(v[1], vr(Win, 1));
        assert_eq!(v[2], vr(Lose, 2));
        assert_eq!(v[0], vr(Win, 3));
    }
}

/// Keeps the notes a solve writes.
#[derive(Default)]
struct Notes(std::sync::Mutex<Vec<String>>);

impl perfectplay_solve::Progress for Notes {
    fn begin(&self, _label: &str, _total: Option<u64>) {}
    fn advance(&self, _amount: u64) {}
    fn end(&self) {}
    fn note(&self, line: &str) {
        self.0.lock().unwrap().push(line.to_string());
    }
}

/// A chain `k -> k - 1` ending in a loss at 0: position `k` is decided at remoteness `k`, on the
/// engine's level `k - 1`. One-byte cells hold 128 codes (the draw's among them): a chain of 120
/// has 121 values and fits them, though it takes 120 levels (where the memory limit leaves no room
/// to widen them); a chain of 200 does not. Cells are widened to two bytes in place as the
/// dictionary fills, where the limit leaves room for both copies (402 bytes beside the solve's
/// estimate of 603 for the chain of 200); where it does not (a limit of 900 bytes), the tier is
/// solved again with two-byte cells.
#[test]
fn one_byte_cells_hold_a_tier_of_many_levels_and_few_values() {
    use Value::*;
    let limited = |bytes| SolveOptions { memory_limit: Some(bytes), ..SolveOptions::default() };
    for (length, options, widened, again) in [
        (120u64, limited(500), false, false),
        (120, limited(1 << 30), true, false),
        (200, limited(900), false, true),
        (200, limited(1005), true, false),
        (200, limited(1 << 30), true, false),
        (200, SolveOptions::default(), true, false),
    ] {
        let edges: Vec<Vec<u64>> =
            (0..=length).map(|k| k.checked_sub(1).into_iter().collect()).collect();
        let mut primitive = vec![None; edges.len()];
        primitive[0] = Some(Lose);
        let g = Graph { edges, primitive, undo: true };
        let notes = Notes::default();
        let s = solve(&g, options, &notes, None).unwrap();
        for k in 0..=length {
            let v = if k % 2 == 1 { Win } else { Lose };
            assert_eq!(s.get(&g, Position(k)), Some(vr(v, k as u16)), "chain of {length}, {k}");
        }
        let notes = notes.0.lock().unwrap();
        let noted = |what: &str| notes.iter().any(|l| l.contains(what));
        assert_eq!(
            noted("one-byte cells were too small (the tier has more than 128 values)"),
            again,
            "chain of {length}: {notes:?}"
        );
        assert_eq!(noted("one-byte cells widened to two bytes"), widened, "{notes:?}");
    }
}

/// A position with more moves than one-byte cells can count (127) is solved again with two-byte
/// cells, and the note says why: 200 moves, each to a win in 1 (a move to the loss at the end), so
/// the position is a loss in 2.
#[test]
fn one_byte_cells_too_few_for_a_position_of_many_moves_say_so() {
    use Value::*;
    let moves = 200u64;
    let end = moves + 1;
    let mut edges: Vec<Vec<u64>> = vec![(1..=moves).collect()];
    edges.extend((1..=moves).map(|_| vec![end]));
    edges.push(Vec::new());
    let mut primitive = vec![None; edges.len()];
    primitive[end as usize] = Some(Lose);
    let g = Graph { edges, primitive, undo: true };
    let notes = Notes::default();
    let s = solve(&g, SolveOptions::default(), &notes, None).unwrap();
    assert_eq!(s.get(&g, Position(0)), Some(vr(Lose, 2)));
    assert_eq!(s.get(&g, Position(moves)), Some(vr(Win, 1)));
    let notes = notes.0.lock().unwrap();
    assert!(
        notes.iter().any(|l| l.contains("(a position has more than 127 moves inside the tier)")),
        "{notes:?}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_loopy_graphs_are_consistent(
        n in 2usize..40,
        raw in proptest::collection::vec((0u8..8, proptest::collection::vec(any::<u64>(), 0..4)), 40),
        undo in any::<bool>(),
    ) {
        let mut edges = Vec::new();
        let mut primitive = Vec::new();
        for (kind, kids) in raw.into_iter().take(n) {
            let kids: Vec<u64> = kids.into_iter().map(|k| k % n as u64).collect();
            let prim = match kind {
                0 => Some(Value::Lose),
                1 => Some(Value::Tie),
                2 => Some(Value::Win),
                _ if kids.is_empty() => Some(Value::Lose),
                _ => None,
            };
            edges.push(if prim.is_some() { Vec::new() } else { kids });
            primitive.push(prim);
        }
        let g = Graph { edges, primitive, undo };
        let s = solve(&g, SolveOptions::default(), &NoProgress, None).unwrap();
        for p in 0..n as u64 {
            prop_assert_eq!(check_best_over_children(&g, &s, Position(p)), Ok(()));
        }
    }

    #[test]
    fn stored_values_are_best_over_children(choices in proptest::collection::vec(any::<usize>(), 0..30)) {
        thread_local! {
            static SOLVED: (Konane, Solution, Konane, Solution, Solution) = {
                let k = Konane::new(4, 5, KonaneStart::Corner).unwrap();
                let ks = solve(&k, SolveOptions::default(), &NoProgress, None).unwrap();
                let c = Konane::new(5, 5, KonaneStart::Center).unwrap();
                let cs = solve(&c, SolveOptions::default(), &NoProgress, None).unwrap();
                let ts = solve(&TicTacToe::default(), SolveOptions::default(), &NoProgress, None).unwrap();
                (k, ks, c, cs, ts)
            };
        }
        SOLVED.with(|(k, ks, c, cs, ts)| {
            for p in k.walk(&choices) {
                prop_assert_eq!(check_best_over_children(k, ks, p), Ok(()));
            }
            for p in c.walk(&choices) {
                prop_assert_eq!(check_best_over_children(c, cs, p), Ok(()));
            }
            for p in TicTacToe::default().walk(&choices) {
                prop_assert_eq!(check_best_over_children(&TicTacToe::default(), ts, p), Ok(()));
            }
            Ok(())
        })?;
    }
}
