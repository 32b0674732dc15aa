//! Mū Tōrere against a plain solver written here on its own board (a ring of eight points and a
//! center), every reachable position compared, and against the published counts: the regular
//! game has 1180 reachable positions, 208 wins, 128 losses and 844 draws for the player to move,
//! and the start is a draw (Wikipedia, "Mū tōrere", Analysis, citing the GamesCrafters analysis);
//! up to rotations and reflections there are 86 game states (scientificgems.wordpress.com, "The
//! game of Mu Torere", 2018: 40 boards with either side to move and 6 lost ones).

mod plain;

use std::collections::HashSet;

use perfectplay_core::{Game, Value};
use perfectplay_games::MuTorere;
use perfectplay_solve::{solve, NoProgress, SolveOptions};
use plain::Plain;

/// The ring (clockwise), the center, the side to move: 0 empty, 1 black, 2 white.
type State = ([u8; 8], u8, u8);

fn children(&(ring, center, me): &State, rule: bool) -> Vec<State> {
    let mut out = Vec::new();
    for i in 0..8 {
        let (left, right) = ((i + 7) % 8, (i + 1) % 8);
        if center == me && ring[i] == 0 {
            let mut r = ring;
            r[i] = me;
            out.push((r, 0, 3 - me));
        }
        if ring[i] != me {
            continue;
        }
        for j in [left, right] {
            if ring[j] == 0 {
                let mut r = ring;
                r.swap(i, j);
                out.push((r, center, 3 - me));
            }
        }
        if center == 0 && (!rule || ring[left] == 3 - me || ring[right] == 3 - me) {
            let mut r = ring;
            r[i] = 0;
            out.push((r, me, 3 - me));
        }
    }
    out
}

fn text(&(ring, center, me): &State) -> String {
    let s: String = ring.iter().chain([&center]).map(|&c| ['-', 'b', 'w'][c as usize]).collect();
    format!("{s} {}", ['-', 'b', 'w'][me as usize])
}

/// The least of the state's images under the 8 rotations and 8 reflections of the ring.
fn class(&(ring, center, me): &State) -> State {
    (0..8)
        .flat_map(|r| [(r, 1), (r, 7)])
        .map(|(r, step)| {
            let mut image = [0u8; 8];
            for (i, &c) in ring.iter().enumerate() {
                image[(r + step * i) % 8] = c;
            }
            (image, center, me)
        })
        .min()
        .unwrap()
}

fn check(variant: &str, rule: bool) -> Plain<State> {
    let game = MuTorere::from_variant(variant).unwrap();
    let solution = solve(&game, SolveOptions::default(), &NoProgress, None).unwrap();
    let start = ([1, 1, 1, 1, 2, 2, 2, 2], 0, 1);
    let plain = Plain::solve(
        start,
        |s| children(s, rule).is_empty().then_some(Value::Lose),
        |s| children(s, rule),
    );
    assert_eq!(text(&start), game.position_to_string(game.start()));
    let analysis = plain.check(&game, &solution, text, variant);
    let classes: HashSet<State> = plain.states.iter().map(class).collect();
    assert_eq!(analysis.canonical_total(), classes.len() as u64);
    plain
}

#[test]
fn regular_game_matches_a_plain_solver_and_the_published_counts() {
    let plain = check("regular", true);
    assert_eq!(plain.values[0], (Value::Draw, 0));
    let count = |v: Value| plain.values.iter().filter(|x| x.0 == v).count();
    assert_eq!(plain.states.len(), 1180);
    assert_eq!((count(Value::Win), count(Value::Lose), count(Value::Draw)), (208, 128, 844));
    assert_eq!(plain.states.iter().map(class).collect::<HashSet<_>>().len(), 86);
}

/// Without the rule, black moves an inner piece to the center and white cannot move.
#[test]
fn without_the_putahi_rule_black_wins_at_once() {
    let plain = check("no-putahi-rule", false);
    assert_eq!(plain.values[0], (Value::Win, 1));
}
