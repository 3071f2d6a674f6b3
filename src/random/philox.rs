//! Host-side Philox4x32-10 and the arithmetic of stream positions (pure, CPU-tested).
//!
//! The GPU kernel (`shaders/philox.wgsl`) does the bulk work; the host needs the same function
//! for a few words at a time: to hash spawned subsequences, and to find where an integer draw
//! stopped inside its last tile.

/// Philox multipliers and Weyl key increments (Random123 `philox.h`).
const M0: u32 = 0xD251_1F53;
const M1: u32 = 0xCD9E_8D57;
const W0: u32 = 0x9E37_79B9;
const W1: u32 = 0xBB67_AE85;

/// One block of Philox4x32-10: the four output words for a 128-bit counter and a 64-bit key
/// (words little-endian, index 0 least significant).
pub(crate) fn philox4x32_10(counter: [u32; 4], key: [u32; 2]) -> [u32; 4] {
    let mut c = counter;
    let mut k = key;
    for round in 0..10 {
        if round > 0 {
            k[0] = k[0].wrapping_add(W0);
            k[1] = k[1].wrapping_add(W1);
        }
        let p0 = u64::from(M0) * u64::from(c[0]);
        let p1 = u64::from(M1) * u64::from(c[2]);
        c = [
            (p1 >> 32) as u32 ^ c[1] ^ k[0],
            p1 as u32,
            (p0 >> 32) as u32 ^ c[3] ^ k[1],
            p0 as u32,
        ];
    }
    c
}

/// A position in the 2^130-word Philox sequence of one key: the block counter (128 bits) and
/// the word's index within that block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct StreamPos {
    /// `(seed lo, seed hi)`.
    pub key: [u32; 2],
    /// The block counter, `subsequence * 2^64 + offset / 4` for a cuRAND stream.
    pub block: u128,
    /// Word index within the block (0..4).
    pub phase: u32,
}

impl StreamPos {
    /// Word `offset` of subsequence `subsequence` under `seed`: cuRAND's
    /// `curand_init(seed, subsequence, offset)`.
    pub fn curand(seed: u64, subsequence: u64, offset: u64) -> StreamPos {
        StreamPos {
            key: [seed as u32, (seed >> 32) as u32],
            block: (u128::from(subsequence) << 64) | u128::from(offset >> 2),
            phase: (offset & 3) as u32,
        }
    }

    /// The position `words` words further on. Counters carry from the offset into the
    /// subsequence words and wrap at 2^128 blocks, as cuRAND's `skipahead` does.
    pub fn advanced(self, words: u64) -> StreamPos {
        let total = u128::from(self.phase) + u128::from(words);
        StreamPos {
            key: self.key,
            block: self.block.wrapping_add(total >> 2),
            phase: (total & 3) as u32,
        }
    }

    /// The block counter as four little-endian words.
    pub fn counter(&self) -> [u32; 4] {
        let b = self.block;
        [
            b as u32,
            (b >> 32) as u32,
            (b >> 64) as u32,
            (b >> 96) as u32,
        ]
    }

    /// The word at this position.
    pub fn word(&self) -> u32 {
        philox4x32_10(self.counter(), self.key)[self.phase as usize]
    }
}

/// Stream words read in order on the host (for draws whose consumption is sequential, such as
/// Fisher–Yates), counting the words consumed.
pub(crate) struct HostWords {
    pos: StreamPos,
    block: [u32; 4],
    consumed: u64,
}

impl HostWords {
    pub fn new(pos: StreamPos) -> HostWords {
        HostWords {
            block: philox4x32_10(pos.counter(), pos.key),
            pos,
            consumed: 0,
        }
    }

    /// Words read so far.
    pub fn consumed(&self) -> u64 {
        self.consumed
    }

    pub fn next_word(&mut self) -> u32 {
        let w = self.block[self.pos.phase as usize];
        self.consumed += 1;
        self.pos = self.pos.advanced(1);
        if self.pos.phase == 0 {
            self.block = philox4x32_10(self.pos.counter(), self.pos.key);
        }
        w
    }

    /// A value uniform on `[0, range)` for `range` in `1..=2^32`: Lemire's multiply with
    /// rejection, exactly as `Generator::integers` draws (rejected words are skipped).
    pub fn bounded(&mut self, range: u64) -> u64 {
        debug_assert!((1..=1 << 32).contains(&range));
        let threshold = (1u64 << 32) % range;
        loop {
            let m = u64::from(self.next_word()) * range;
            if (m & 0xffff_ffff) >= threshold {
                return m >> 32;
            }
        }
    }

    /// cuRAND's `_curand_uniform_double_hq` of the next two words: 53 bits, in (0, 1].
    pub fn uniform53(&mut self) -> f64 {
        let x = u64::from(self.next_word());
        let y = u64::from(self.next_word());
        let z = x ^ (y << 21);
        let inv = 1.0 / 9_007_199_254_740_992.0; // 2^-53
        z as f64 * inv + inv / 2.0
    }
}

/// The subsequence of child `index` spawned from `(seed, parent)`: a Philox hash of both under a
/// key that no stream uses for data (the seed's key xor a constant). Distinct children of one
/// parent, and children of different parents, collide only by chance (2^-64 per pair).
pub(crate) fn spawn_subsequence(seed: u64, parent: u64, index: u64) -> u64 {
    const DOMAIN: [u32; 2] = [0x5370_6177, 0x6e43_6869]; // "Spaw", "nChi"
    let key = [seed as u32 ^ DOMAIN[0], (seed >> 32) as u32 ^ DOMAIN[1]];
    let w = philox4x32_10(
        [
            index as u32,
            (index >> 32) as u32,
            parent as u32,
            (parent >> 32) as u32,
        ],
        key,
    );
    u64::from(w[0]) | (u64::from(w[1]) << 32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random123_known_answers() {
        // Random123 tests/kat_vectors, philox4x32 R=10.
        assert_eq!(
            philox4x32_10([0; 4], [0; 2]),
            [0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8]
        );
        assert_eq!(
            philox4x32_10([u32::MAX; 4], [u32::MAX; 2]),
            [0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd]
        );
        assert_eq!(
            philox4x32_10(
                [0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344],
                [0xa4093822, 0x299f31d0]
            ),
            [0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1]
        );
    }

    #[test]
    fn curand_positions() {
        let p = StreamPos::curand(0x1234_5678_9abc_def0, 7, 13);
        assert_eq!(p.key, [0x9abc_def0, 0x1234_5678]);
        assert_eq!(p.counter(), [3, 0, 7, 0]);
        assert_eq!(p.phase, 1);
        let q = p.advanced(3);
        assert_eq!((q.counter(), q.phase), ([4, 0, 7, 0], 0));
        // Offsets past 2^32 blocks use the counter's second word.
        let r = StreamPos::curand(1, 0, (5u64 << 34) + 2);
        assert_eq!((r.counter(), r.phase), ([0, 5, 0, 0], 2));
        // The largest offset is block 2^62 - 1, word 3.
        let s = StreamPos::curand(1, 3, u64::MAX);
        assert_eq!((s.counter(), s.phase), ([!0, 0x3fff_ffff, 3, 0], 3));
        // Block counters carry into the subsequence words, and wrap at 2^128 (cuRAND's skipahead).
        let t = StreamPos {
            key: [1, 0],
            block: (3u128 << 64) | u128::from(u64::MAX),
            phase: 2,
        };
        assert_eq!(t.advanced(2).counter(), [0, 0, 4, 0]);
        let u = StreamPos {
            block: u128::MAX,
            ..t
        };
        assert_eq!(u.advanced(2).counter(), [0, 0, 0, 0]);
    }

    #[test]
    fn words_follow_the_stream() {
        let p = StreamPos::curand(42, 0, 0);
        let block = philox4x32_10([0, 0, 0, 0], [42, 0]);
        let next = philox4x32_10([1, 0, 0, 0], [42, 0]);
        let words: Vec<u32> = (0..8).map(|i| p.advanced(i).word()).collect();
        assert_eq!(&words[..4], &block);
        assert_eq!(&words[4..], &next);
    }

    #[test]
    fn host_words_read_the_stream_in_order() {
        let start = StreamPos::curand(9, 2, 3);
        let mut h = HostWords::new(start);
        for i in 0..9 {
            assert_eq!(h.next_word(), start.advanced(i).word());
        }
        assert_eq!(h.consumed(), 9);
        // Bounded draws stay in range; a range of one consumes a word and gives 0.
        assert!((0..100).all(|_| h.bounded(7) < 7));
        let before = h.consumed();
        assert_eq!(h.bounded(1), 0);
        assert_eq!(h.consumed(), before + 1);
        let u = h.uniform53();
        assert!(u > 0.0 && u <= 1.0);
    }

    #[test]
    fn spawned_subsequences_differ() {
        let a: Vec<u64> = (0..64).map(|i| spawn_subsequence(7, 0, i)).collect();
        let mut sorted = a.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), a.len());
        assert_ne!(spawn_subsequence(7, 0, 0), spawn_subsequence(7, 1, 0));
        assert_ne!(spawn_subsequence(7, 0, 0), spawn_subsequence(8, 0, 0));
    }
}
