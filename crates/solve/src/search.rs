//! Live solving: the value and remoteness of one position of a loop-free game, by depth-first
//! search over its children, from nothing stored (003 3.9's "SolveLive"). A table keeps what was
//! found per canonical position, so a search shares work between transpositions and symmetric
//! positions, and later queries reuse it.
//!
//! The value is the best over the children of what each is worth to the mover
//! ([`ValueRemoteness::to_parent`]), exactly as the retrograde engine computes it, so the two
//! agree position by position. A search stops looking at a position's children once one of them
//! is worth the best any child could be (a primitive loss for the opponent: win in 1), and tries
//! the primitive children first.

use std::collections::HashMap;

use perfectplay_core::{Game, GameExt, Position, Remoteness, ValueRemoteness};

use crate::SolveError;

/// A search with its table of positions solved.
#[derive(Debug)]
pub struct Search<'g, G: Game + ?Sized> {
    game: &'g G,
    /// Per canonical position its value, or `None` while its search is under way (a position
    /// met again below itself means the game has a loop).
    table: HashMap<Position, Option<ValueRemoteness>>,
    nodes: u64,
}

impl<'g, G: Game + ?Sized> Search<'g, G> {
    /// A search with an empty table.
    pub fn new(game: &'g G) -> Self {
        Search { game, table: HashMap::new(), nodes: 0 }
    }

    /// Positions expanded so far (their children generated).
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Canonical positions in the table.
    pub fn table_len(&self) -> usize {
        self.table.len()
    }

    /// The value and remoteness of `p`. Fails on a position that is not primitive and has no
    /// moves, and on a loop (the search is for games whose moves never return to a position).
    pub fn value(&mut self, p: Position) -> Result<ValueRemoteness, SolveError> {
        if let Some(v) = self.game.primitive(p) {
            return Ok(ValueRemoteness::new(v, Remoteness(0)));
        }
        let key = self.game.canonical(p);
        match self.table.get(&key) {
            Some(None) => {
                return Err(SolveError::Unsupported {
                    what: format!("live solving a game with a loop (at {p:?})"),
                })
            }
            Some(&Some(vr)) => return Ok(vr),
            None => {}
        }
        self.nodes += 1;
        let mut children = Vec::new();
        self.game.children(p, &mut children);
        if children.is_empty() {
            return Err(SolveError::NoMoves { position: p });
        }
        // A primitive child first: a loss for the opponent is the best there is.
        let mut best: Option<ValueRemoteness> = None;
        for &c in &children {
            if let Some(v) = self.game.primitive(c) {
                let worth = ValueRemoteness::new(v, Remoteness(0)).to_parent();
                best = Some(best.map_or(worth, |b| b.max(worth)));
            }
        }
        let top = ValueRemoteness::new(perfectplay_core::Value::Win, Remoteness(1));
        if best != Some(top) {
            self.table.insert(key, None);
            for &c in &children {
                if self.game.primitive(c).is_some() {
                    continue;
                }
                let worth = self.value(c)?.to_parent();
                best = Some(best.map_or(worth, |b| b.max(worth)));
                if best == Some(top) {
                    break;
                }
            }
        }
        let vr = best.ok_or(SolveError::NoMoves { position: p })?;
        self.table.insert(key, Some(vr));
        Ok(vr)
    }
}
