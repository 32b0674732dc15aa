//! The workers of an MPI run as the ranks a tier in parts is shared over
//! ([`perfectplay_solve::Ranks`]): worker `r` is world rank `r + 1` (rank 0 manages). An exchange
//! is point-to-point: to each other worker a head (the length) and the bytes in pieces of at most
//! 1 GiB (MPI counts in an `int`), all sent at once without blocking; what the others send is
//! probed for and taken as it comes. Waits sleep between probes rather than spin, so that a rank
//! waiting at a level's end leaves its cores to the ranks still working on the same machine.

use std::time::Duration;

use mpi::point_to_point::MatchedReceiveVec;
use mpi::topology::SimpleCommunicator;
use mpi::traits::{Communicator, Destination, Source};
use perfectplay_solve::Ranks;

/// The tag of messages between workers sharing a tier (the manager's messages have the default).
const TAG: mpi::Tag = 17;
/// The most bytes one message carries.
const PIECE: usize = 1 << 30;
/// How long a rank waiting for the others sleeps between two looks.
const NAP: Duration = Duration::from_micros(500);

/// The workers of the MPI world, as seen from one of them.
#[derive(Debug)]
pub struct Workers {
    rank: usize,
    size: usize,
}

impl Workers {
    /// The workers of `world`, from worker `world.rank()`'s side (not the manager's).
    pub fn of(world: &SimpleCommunicator) -> Workers {
        Workers { rank: world.rank().max(1) as usize - 1, size: world.size().max(2) as usize - 1 }
    }
}

impl Ranks for Workers {
    fn rank(&self) -> usize {
        self.rank
    }

    fn size(&self) -> usize {
        self.size
    }

    fn exchange(&self, mut outgoing: Vec<Vec<u8>>) -> Vec<Vec<u8>> {
        let world = SimpleCommunicator::world();
        let peer = |r: usize| world.process_at_rank(r as i32 + 1);
        outgoing.resize(self.size, Vec::new());
        let mut incoming = vec![Vec::new(); self.size];
        incoming[self.rank] = std::mem::take(&mut outgoing[self.rank]);
        let heads: Vec<[u8; 8]> = outgoing.iter().map(|o| (o.len() as u64).to_le_bytes()).collect();
        mpi::request::scope(|scope| {
            let mut sends = Vec::new();
            for (r, out) in outgoing.iter().enumerate().filter(|&(r, _)| r != self.rank) {
                sends.push(peer(r).immediate_send_with_tag(scope, &heads[r][..], TAG));
                for piece in out.chunks(PIECE) {
                    sends.push(peer(r).immediate_send_with_tag(scope, piece, TAG));
                }
            }
            // Per sender, the length its head announced.
            let mut expected: Vec<Option<usize>> = vec![None; self.size];
            let mut pending: Vec<usize> = (0..self.size).filter(|&r| r != self.rank).collect();
            while !pending.is_empty() {
                let mut took = false;
                pending.retain(|&r| {
                    while let Some(probed) = peer(r).immediate_matched_probe_with_tag(TAG) {
                        took = true;
                        match expected[r] {
                            None => {
                                let (head, _) = probed.matched_receive_vec::<u8>();
                                let len = head.try_into().map_or(0, u64::from_le_bytes) as usize;
                                incoming[r].reserve_exact(len);
                                expected[r] = Some(len);
                            }
                            Some(_) => {
                                let (piece, _) = probed.matched_receive_vec::<u8>();
                                incoming[r].extend_from_slice(&piece);
                            }
                        }
                        if expected[r] == Some(incoming[r].len()) {
                            return false;
                        }
                    }
                    true
                });
                if !took {
                    std::thread::sleep(NAP);
                }
            }
            for mut send in sends {
                while let Err(waiting) = send.test() {
                    send = waiting;
                    std::thread::sleep(NAP);
                }
            }
        });
        incoming
    }
}
