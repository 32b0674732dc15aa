//! Helpers shared by the solver's integration tests.

use perfectplay_core::{Game, Position, Remoteness, ValueRemoteness};
use perfectplay_solve::Solution;

/// Checks a solved position: a primitive has its value at remoteness 0; any other position's
/// value is the best over its children by the seeds' rules.
#[allow(dead_code)] // reason: each test binary compiles this module; not all of them use it
pub fn check_best_over_children<G: Game + ?Sized>(
    game: &G,
    solution: &Solution,
    p: Position,
) -> Result<(), String> {
    let got = solution.get(game, p).ok_or("position not solved")?;
    let want = match game.primitive(p) {
        Some(v) => ValueRemoteness::new(v, Remoteness(0)),
        None => {
            let mut kids = Vec::new();
            game.children(p, &mut kids);
            kids.iter()
                .map(|&c| solution.get(game, c).map(|x| x.to_parent()).ok_or("child not solved"))
                .collect::<Result<Vec<_>, _>>()?
                .into_iter()
                .max()
                .ok_or("non-primitive position without children")?
        }
    };
    if got == want {
        Ok(())
    } else {
        Err(format!("{}: stored {got}, best over children {want}", game.position_to_string(p)))
    }
}

/// The seeds' perfect play over a non-primitive position's children, each `(value, remoteness)`
/// for the player to move there: win fastest, else tie fastest, else lose slowest. For plain
/// memoized solvers of loop-free games written in tests.
#[allow(dead_code)] // reason: each test binary compiles this module; not all of them use it
pub fn perfect_play(children: &[(perfectplay_core::Value, u16)]) -> (perfectplay_core::Value, u16) {
    use perfectplay_core::Value;
    let best = |v: Value| children.iter().filter(|k| k.0 == v).map(|k| k.1).min();
    if let Some(r) = best(Value::Lose) {
        (Value::Win, r + 1)
    } else if let Some(r) = best(Value::Tie) {
        (Value::Tie, r + 1)
    } else {
        (Value::Lose, children.iter().map(|k| k.1).max().expect("a child") + 1)
    }
}
