//! Derived positions: a derived table's, and a table's past the positions it stores, computed
//! from their children's values.

use perfectplay_core::{Game, GameExt, Position, Remoteness, Tier, ValueRemoteness};
use perfectplay_solve::{SolvedTier, TierSpace, TierValues};
use rayon::prelude::*;

use super::{Database, Fetch, Found};
use crate::format::TableKind;
use crate::DbError;

impl Database {
    /// The value of `p` (in the form the file holds), stored or derived; `steps`: how many
    /// derivations this one lies under.
    pub(super) fn found<G: Game + ?Sized>(
        &self,
        game: &G,
        p: Position,
        fetch: Fetch,
        steps: u32,
    ) -> Result<Found, DbError> {
        let tier = game.tier(p);
        let Some(&t) = self.by_tier.get(&tier.0) else { return Ok(Found::Absent) };
        let table = &self.header.tables[t];
        let index = match table.kind {
            TableKind::Derived => return self.derived(game, p, fetch, steps),
            // A dense table numbers positions by the game's index within the tier.
            TableKind::Dense => game.tier_index(p),
            TableKind::Sorted => return self.get_stored_with(tier, p, fetch),
        };
        match table.derives(index) {
            true => self.derived(game, p, fetch, steps),
            false => self.get_stored_with(tier, Position(index), fetch),
        }
    }

    /// The value of a position whose value is derived (a derived table's, or one of a dense
    /// table's positions past those stored): its primitive value, else the best over its
    /// children's (absent if a child is: the start does not reach the position). A derived
    /// tier's children may lie past a table's stored positions, whose children are stored: two
    /// derivations deep at most.
    fn derived<G: Game + ?Sized>(
        &self,
        game: &G,
        p: Position,
        fetch: Fetch,
        steps: u32,
    ) -> Result<Found, DbError> {
        if steps >= 2 {
            return Err(DbError::Corrupt {
                path: self.path.clone(),
                what: format!(
                    "tier {}: a position derived from derived positions of derived positions",
                    game.tier(p).0
                ),
            });
        }
        if let Some(v) = game.primitive(p) {
            return Ok(Found::Value(ValueRemoteness::new(v, Remoteness(0))));
        }
        let mut children = Vec::new();
        game.children(p, &mut children);
        let mut best: Option<ValueRemoteness> = None;
        for c in children {
            let c = if self.header.canonical { game.canonical(c) } else { c };
            match self.found(game, c, fetch, steps + 1)? {
                Found::Value(v) => best = best.max(Some(v.to_parent())),
                other => return Ok(other),
            }
        }
        best.map(Found::Value).ok_or_else(|| DbError::Corrupt {
            path: self.path.clone(),
            what: format!("a derived position of tier {} has no moves", game.tier(p).0),
        })
    }

    /// [`Database::load_tier`], computing derived values (a derived table's, and those of a
    /// table stored in part past its stored positions) position by position from their
    /// children (indices that name no position, or a position the start does not reach, get
    /// placeholders).
    pub fn load_tier_of<G: Game + Sync + ?Sized>(
        &self,
        game: &G,
        tier: Tier,
    ) -> Result<Option<SolvedTier>, DbError> {
        let Some(&t) = self.by_tier.get(&tier.0) else { return Ok(None) };
        let table = &self.header.tables[t];
        if table.stored == table.positions {
            return self.load_table(t).map(Some);
        }
        if table.positions != game.tier_size(tier) {
            return Err(DbError::Corrupt {
                path: self.path.clone(),
                what: format!(
                    "derived tier {}: {} positions, the game's tier has {}",
                    tier.0,
                    table.positions,
                    game.tier_size(tier)
                ),
            });
        }
        let mut values = vec![ValueRemoteness::DRAW; table.positions as usize];
        if table.stored > 0 {
            let part = self.load_values(t)?;
            values[..table.stored as usize]
                .par_iter_mut()
                .enumerate()
                .for_each(|(i, v)| *v = part.values.get(i));
        }
        let stored = table.stored as usize;
        values[stored..].par_chunks_mut(1 << 12).enumerate().try_for_each(|(k, out)| {
            let first = stored as u64 + ((k as u64) << 12);
            let mut positions = vec![None; out.len()];
            match game.kernel() {
                Some(kernel) => kernel.tier_positions(tier, first, &mut positions),
                None => {
                    for (i, p) in positions.iter_mut().enumerate() {
                        *p = game.tier_position(tier, first + i as u64);
                    }
                }
            }
            for (v, p) in out.iter_mut().zip(positions) {
                if let Some(Found::Value(found)) =
                    p.map(|p| self.derived(game, p, Fetch::Read, 0)).transpose()?
                {
                    *v = found;
                }
            }
            Ok::<_, DbError>(())
        })?;
        Ok(Some(SolvedTier {
            tier,
            space: TierSpace::Dense { size: table.positions },
            values: TierValues::new(values),
            care: None,
            reached: None,
        }))
    }
}
