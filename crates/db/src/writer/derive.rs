//! What a database may leave to be derived from children rather than store ([`derivable`]), and
//! the writer's copy of another database's tables that leaves it out.

use rayon::prelude::*;

use super::{compressing, Packer, Writer};
use crate::format::{encode_codes, BlockRef, TableHeader, TableKind};
use crate::DbError;
use perfectplay_core::{Game, GameExt};

impl Writer<'_> {
    /// [`Writer::add_tables_from`], except that what `derived` names ([`derivable`]) is left to
    /// be derived from children: the dense tables of its tiers stored as derived tables (no
    /// values), and its other dense tables' values stored up to its index for them only
    /// ([`TableHeader::stored`]).
    pub fn add_tables_deriving(
        &mut self,
        db: &crate::reader::Database,
        derived: &Derivable,
    ) -> Result<(), DbError> {
        db.check_game(self.game)?;
        self.unchecked |= db.header().fingerprint == crate::fingerprint::NONE;
        for (t, old) in db.header().tables.iter().enumerate() {
            match (derived_header(old, &derived.tiers), derived.stored(old)) {
                (Some(header), _) => self.push(header, Vec::new())?,
                (None, stored) if stored < old.stored => self.copy_table_part(db, t, stored)?,
                (None, _) => self.copy_table(db, t)?,
            }
        }
        Ok(())
    }

    /// Copies dense table `t` of `db` with the values of its first `stored` positions only
    /// (fewer than it stores): its blocks before `stored` as they are, as
    /// [`Writer::add_tables_from`] copies them, the block across it cut there and compressed
    /// again (every block, where `db` holds another layout than this writer's).
    pub(super) fn copy_table_part(
        &mut self,
        db: &crate::reader::Database,
        t: usize,
        stored: u64,
    ) -> Result<(), DbError> {
        let old = &db.header().tables[t];
        let mut header = TableHeader { stored, ..old.clone() };
        let per = 1u64 << old.value_block_shift;
        let blocks = if old.bits == 0 { 0 } else { stored.div_ceil(per) as usize };
        header.value_blocks.truncate(blocks);
        let same = old.layout == self.layout;
        // The blocks copied as they are: all but a last one cut short.
        let copied = if same { (stored / per) as usize } else { 0 }.min(blocks);
        let (level, layout) = (self.level, self.layout);
        let recoded = (copied..blocks)
            .into_par_iter()
            .map_init(Packer::new(level), |packer, b| {
                let codes = db.value_block_codes(t, b)?;
                let n = (stored - b as u64 * per).min(per) as usize;
                let raw = encode_codes(codes[..n].iter().copied(), n, old.bits, layout);
                packer.compress(&raw).map_err(compressing)
            })
            .collect::<Result<Vec<_>, _>>()?;
        header.layout = if blocks > copied { layout } else { old.layout };
        for (r, p) in header.value_blocks[copied..].iter_mut().zip(&recoded) {
            *r = BlockRef { offset: 0, len: p.len() as u32, crc: crc32fast::hash(p) };
        }
        let source = old.value_blocks[..copied].to_vec();
        self.place(&mut header);
        if !source.is_empty() {
            self.spill.append_from(db.path(), source);
        }
        self.spill.append(recoded)?;
        self.tables.push(header);
        Ok(())
    }
}

/// What a database may leave to be derived from children rather than store ([`derivable`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Derivable {
    /// Tiers stored as derived tables ([`TableKind::Derived`]): none of whose moves stays in
    /// the tier, each of whose child tiers is stored, in whole or in part.
    pub tiers: Vec<perfectplay_core::Tier>,
    /// Tiers whose dense tables store the values of the positions before an index only
    /// ([`TableHeader::stored`], [`perfectplay_core::TierIndex::derivable_from`]).
    pub from: Vec<(perfectplay_core::Tier, u64)>,
}

impl Derivable {
    /// Nothing derived.
    pub const NONE: Derivable = Derivable { tiers: Vec::new(), from: Vec::new() };

    /// What is derived, in words: "" where nothing is.
    pub fn describe(&self) -> String {
        match (self.tiers.len(), self.from.len()) {
            (0, 0) => String::new(),
            (n, 0) => format!("{n} tiers derived from their children"),
            (n, m) => format!("{n} tiers derived from their children, {m} in part"),
        }
    }

    /// How many of `table`'s positions keep their values stored: fewer where the table is
    /// dense and its tier's positions are derivable from an index on.
    pub(super) fn stored(&self, table: &TableHeader) -> u64 {
        let from = self.from.iter().find(|(t, _)| t.0 == table.tier).map(|&(_, from)| from);
        match (table.kind, from) {
            (TableKind::Dense, Some(from)) => from.min(table.stored),
            _ => table.stored,
        }
    }
}

/// What a database may leave to be derived from children: the tiers (children first) none of
/// whose moves stays in the tier ([`perfectplay_core::TierIndex::moves_within`]) that have child
/// tiers, none of them derived whole; and the positions of each tier from the index its game
/// says on ([`perfectplay_core::TierIndex::derivable_from`]), whose children are all stored. In
/// Nine Men's Morris: the placement tiers with an odd number of pieces in hand, whose children
/// (one piece fewer in hand) are stored, and black's turns in the moving tiers where white has
/// more pieces, each of whose moves leads to white's turn. A derived tier's child may then be
/// derived itself: two steps, each child of that one stored.
pub fn derivable(game: &dyn Game) -> Derivable {
    let mut derived = Derivable::default();
    for t in game.tiers() {
        let children = game.child_tiers(t);
        if !game.moves_within(t)
            && !children.is_empty()
            && children.iter().all(|c| !derived.tiers.contains(c))
        {
            derived.tiers.push(t);
        } else if let Some(from) = game.derivable_from(t).filter(|&f| f < game.tier_size(t)) {
            derived.from.push((t, from));
        }
    }
    derived
}

/// The derived table standing for `old` where it is a dense table of a tier in `derived`: its
/// tier, positions and fingerprint, no values.
pub(super) fn derived_header(
    old: &TableHeader,
    derived: &[perfectplay_core::Tier],
) -> Option<TableHeader> {
    (old.kind == TableKind::Dense && derived.contains(&perfectplay_core::Tier(old.tier))).then(
        || TableHeader {
            kind: TableKind::Derived,
            stored: 0,
            dictionary: Vec::new(),
            bits: 0,
            absent: false,
            value_blocks: Vec::new(),
            key_blocks: Vec::new(),
            ..old.clone()
        },
    )
}
