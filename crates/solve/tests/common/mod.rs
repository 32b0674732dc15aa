//! Helpers shared by the solver's integration tests.

use perfectplay_core::{Game, Position, Remoteness, ValueRemoteness};
use perfectplay_solve::Solution;

/// Checks a solved position: a primitive has its value at remoteness 0; any other position's
/// value is the best over its children by the seeds' rules.
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
