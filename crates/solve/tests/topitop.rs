//! Topitop's small variant (one B, one R, two S, two L; one finished building wins) against a
//! plain solver written here on its own model: a slot holds a stack of components from the bottom
//! up, and a building may move onto another exactly when the stacked result is one of the nine
//! buildings (L, S, LS, B, SB, LSB, R, SR, LSR), which is 003 4.6.1's list of stackings read
//! another way. Every position reachable from the start is compared, value and remoteness.

mod rounds;

use perfectplay_core::{Game, Value};
use perfectplay_games::Topitop;
use perfectplay_solve::{analyze, solve, NoProgress, SolveOptions};
use rounds::Explored;

/// A slot: its components from the bottom, `0` past the top.
type Slot = [u8; 3];

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
struct State {
    slots: [Slot; 9],
    turn: usize,
    /// The last slide of a building without a bucket onto an empty slot: (from, to).
    slid: Option<(usize, usize)>,
}

const BUILDINGS: [&[u8]; 9] = [b"B", b"SB", b"LSB", b"R", b"SR", b"LSR", b"S", b"L", b"LS"];
const SUPPLY: [(u8, usize); 4] = [(b'B', 1), (b'R', 1), (b'S', 2), (b'L', 2)];

fn stack_of(s: &Slot) -> Vec<u8> {
    s.iter().copied().take_while(|&c| c != 0).collect()
}

fn slot_of(stack: &[u8]) -> Slot {
    let mut s = [0; 3];
    s[..stack.len()].copy_from_slice(stack);
    s
}

fn is_building(stack: &[u8]) -> bool {
    BUILDINGS.contains(&stack)
}

fn adjacent(a: usize, b: usize) -> bool {
    a != b && (a % 3).abs_diff(b % 3) <= 1 && (a / 3).abs_diff(b / 3) <= 1
}

fn finished(s: &State, bucket: u8) -> usize {
    s.slots.iter().filter(|slot| stack_of(slot) == [b'L', b'S', bucket]).count()
}

fn primitive(s: State) -> Option<Value> {
    let blue_won = finished(&s, b'B') >= 1;
    let red_won = finished(&s, b'R') >= 1;
    match (blue_won, red_won) {
        (false, false) => None,
        (true, _) => Some(if s.turn == 0 { Value::Win } else { Value::Lose }),
        (_, true) => Some(if s.turn == 1 { Value::Win } else { Value::Lose }),
    }
}

fn children(s: State) -> Vec<State> {
    let mut out = Vec::new();
    let next = |slots: [Slot; 9], slid| State { slots, turn: 1 - s.turn, slid };
    // Placements: the components not yet on the board, a player's own bucket and either hill.
    for (component, supply) in SUPPLY {
        let used = s.slots.iter().flatten().filter(|&&c| c == component).count();
        let mine = match component {
            b'B' => s.turn == 0,
            b'R' => s.turn == 1,
            _ => true,
        };
        if used < supply && mine {
            for to in (0..9).filter(|&t| s.slots[t][0] == 0) {
                let mut slots = s.slots;
                slots[to] = slot_of(&[component]);
                out.push(next(slots, None));
            }
        }
    }
    // Moves: a building whose bucket, if any, is one's own, one step onto an empty slot (not
    // back along the opponent's last slide) or onto a building it completes.
    for from in 0..9 {
        let moving = stack_of(&s.slots[from]);
        let bucket = moving.iter().copied().find(|&c| c == b'B' || c == b'R');
        if moving.is_empty() || bucket == Some([b'R', b'B'][s.turn]) {
            continue;
        }
        for to in (0..9).filter(|&t| adjacent(from, t)) {
            let standing = stack_of(&s.slots[to]);
            let mut slots = s.slots;
            slots[from] = [0; 3];
            if standing.is_empty() {
                if s.slid == Some((to, from)) {
                    continue;
                }
                slots[to] = slot_of(&moving);
                out.push(next(slots, bucket.is_none().then_some((from, to))));
            } else {
                let stacked = [standing, moving.clone()].concat();
                if is_building(&stacked) {
                    slots[to] = slot_of(&stacked);
                    out.push(next(slots, None));
                }
            }
        }
    }
    if out.is_empty() {
        out.push(next(s.slots, None));
    }
    out
}

fn text(s: State) -> String {
    let cell = |slot: &Slot| {
        let stack = stack_of(slot);
        BUILDINGS
            .iter()
            .position(|b| *b == stack.as_slice())
            .map_or('-', |i| (b'1' + i as u8) as char)
    };
    let rows: Vec<String> = s.slots.chunks(3).map(|r| r.iter().map(cell).collect()).collect();
    let name = |i: usize| format!("{}{}", (b'a' + (i % 3) as u8) as char, i / 3 + 1);
    let slid = s.slid.map_or(String::new(), |(f, t)| format!(" {}{}", name(f), name(t)));
    format!("{} {}{slid}", rows.join("/"), ["B", "R"][s.turn])
}

#[test]
fn small_topitop_matches_a_plain_solver_everywhere() {
    let game = Topitop::from_variant("small").unwrap();
    let solution = solve(&game, SolveOptions::default(), &NoProgress, None).unwrap();
    let start = State { slots: [[0; 3]; 9], turn: 0, slid: None };
    assert_eq!(game.position_to_string(game.start()), text(start));
    let explored = Explored::new(start, primitive, children);
    let values = explored.solve();
    explored.check_solution(&values, &game, &solution, text);
    let analysis = analyze(&game, &solution, &NoProgress).unwrap();
    assert_eq!(analysis.total(), explored.states.len() as u64);
    assert!(explored.states.len() > 10_000, "{}", explored.states.len());
}
