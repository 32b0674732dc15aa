//! A database reader's cache of decoded blocks: a byte budget, evicted by the clock.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum BlockKey {
    Values { table: u32, block: u32 },
    Keys { table: u32, block: u32 },
}

/// Decoded blocks under a byte budget, evicted by the clock (second-chance) policy: a block used
/// since the hand last passed it stays one more round. Every operation is O(1) amortized.
#[derive(Debug)]
pub(crate) struct Cache {
    pub(crate) capacity: usize,
    pub(crate) bytes: usize,
    pub(crate) blocks: HashMap<BlockKey, (Arc<Vec<u64>>, bool)>,
    pub(crate) hand: VecDeque<BlockKey>,
    pub(crate) hits: u64,
    pub(crate) misses: u64,
}

impl Cache {
    /// An empty cache of at most `capacity` bytes of decoded blocks.
    pub(crate) fn new(capacity: usize) -> Cache {
        Cache {
            capacity,
            bytes: 0,
            blocks: HashMap::new(),
            hand: VecDeque::new(),
            hits: 0,
            misses: 0,
        }
    }

    pub(crate) fn get(&mut self, key: BlockKey) -> Option<Arc<Vec<u64>>> {
        match self.blocks.get_mut(&key) {
            Some((b, used)) => {
                *used = true;
                self.hits += 1;
                Some(b.clone())
            }
            None => {
                self.misses += 1;
                None
            }
        }
    }

    pub(crate) fn insert(&mut self, key: BlockKey, block: Arc<Vec<u64>>) {
        let size = block.len() * 8 + 64;
        if size > self.capacity || self.blocks.contains_key(&key) {
            return;
        }
        while self.bytes + size > self.capacity {
            let Some(old) = self.hand.pop_front() else { break };
            match self.blocks.get_mut(&old) {
                Some((_, used)) if *used => {
                    *used = false;
                    self.hand.push_back(old);
                }
                Some(_) => {
                    if let Some((b, _)) = self.blocks.remove(&old) {
                        self.bytes -= b.len() * 8 + 64;
                    }
                }
                None => {}
            }
        }
        self.bytes += size;
        self.blocks.insert(key, (block, false));
        self.hand.push_back(key);
    }
}
