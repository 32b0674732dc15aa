//! The reachability search's marks kept beside the tier files ([`TierFiles::keep_reached`]):
//! read back bit for bit, and a file damaged, cut short or of another game is removed rather than
//! read.

use perfectplay_core::{Game, GameExt};
use perfectplay_db::{tier_dir, KeptReached, TierFiles};
use perfectplay_solve::{marks_words, reach_tiered, NoProgress};

/// A way to damage the marks file's bytes.
type Damage = Box<dyn Fn(&mut Vec<u8>)>;

struct Dir(std::path::PathBuf);

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn kept_marks_read_back_bit_for_bit_and_damaged_ones_are_removed() {
    let dir = Dir(std::env::temp_dir().join(format!("perfectplay-marks-{}", std::process::id())));
    let game = perfectplay_games::lookup("sixmensmorris", None).unwrap();
    let game: &dyn Game = game.as_ref();
    let path = dir.0.join("sixmensmorris.ppdb");
    let files = TierFiles::new(&path, game, true);
    assert!(matches!(files.kept_reached().unwrap(), KeptReached::None));

    let reached = reach_tiered(game, &NoProgress).unwrap();
    let bytes = files.keep_reached(&reached).unwrap();
    let marks = tier_dir(&path).join("reached.marks");
    assert_eq!(std::fs::metadata(&marks).unwrap().len(), bytes);
    let KeptReached::Read(back) = files.kept_reached().unwrap() else { panic!("not read back") };
    let mut indices = 0u64;
    for t in game.tiers() {
        assert_eq!(back.count(t), reached.count(t), "tier {}", game.tier_name(t));
        for i in 0..game.tier_size(t) {
            assert_eq!(back.sides(t, i), reached.sides(t, i), "tier {} index {i}", t.0);
        }
        indices += game.tier_size(t);
    }
    let count: u64 = game.tiers().iter().map(|&t| reached.count(t)).sum();
    assert!(count > 0 && count < indices, "{count} of {indices} reached");

    // One bit flipped in the words, in the game's name, in the header's checksum, the file cut
    // short, one byte more: each is removed, not read, and the next look finds none.
    let good = std::fs::read(&marks).unwrap();
    let words: u64 = game.tiers().iter().map(|&t| marks_words(game, t) * 8 + 4).sum();
    let header_crc = good.len() - words as usize - 1;
    let damaged: [Damage; 5] = [
        Box::new(|b| {
            let n = b.len();
            b[n - 100] ^= 4
        }),
        Box::new(|b| b[20] ^= 1),
        Box::new(move |b| b[header_crc] ^= 0x80),
        Box::new(|b| b.truncate(b.len() - 1)),
        Box::new(|b| b.push(0)),
    ];
    for damage in &damaged {
        let mut bytes = good.clone();
        damage(&mut bytes);
        std::fs::write(&marks, &bytes).unwrap();
        match files.kept_reached().unwrap() {
            KeptReached::Discarded(p) => assert_eq!(p, marks),
            other => panic!("a damaged file gave {other:?}"),
        }
        assert!(!marks.exists());
        assert!(matches!(files.kept_reached().unwrap(), KeptReached::None));
    }

    // Another game's tier files do not take these marks.
    std::fs::write(&marks, &good).unwrap();
    let other = perfectplay_games::lookup("tictactwo", None).unwrap();
    let others = TierFiles::new(&path, other.as_ref(), true);
    assert!(matches!(others.kept_reached().unwrap(), KeptReached::Discarded(_)));
}
