//! The simulation's random numbers: one generator, seeded once, drawn from
//! in the order the simulation makes its choices.
//!
//! It is xoshiro256** (Blackman and Vigna) with its state filled by
//! SplitMix64 from the seed, as its authors recommend. It is written out
//! here rather than taken from a crate because the simulation's promise
//! (the same seed gives the same trace, in every build and on every
//! version) depends on the exact sequence, which a dependency may change
//! in a minor release; the algorithm is twenty lines and fixed forever.
//! No floating point: every draw is integer arithmetic, so the sequence
//! does not depend on the platform's floating-point behaviour.

/// A seeded pseudo-random generator (xoshiro256**).
#[derive(Debug, Clone)]
pub struct SimRng {
    state: [u64; 4],
}

impl SimRng {
    /// A generator whose whole sequence is fixed by `seed`.
    pub fn new(seed: u64) -> SimRng {
        let mut mix = seed;
        let mut next = || {
            // SplitMix64.
            mix = mix.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = mix;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        SimRng {
            state: [next(), next(), next(), next()],
        }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let s = &mut self.state;
        let result = s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        result
    }

    /// A number in `0..bound` (`0` when `bound` is 0), without modulo bias
    /// worth speaking of (Lemire's multiply-shift).
    pub fn below(&mut self, bound: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(bound)) >> 64) as u64
    }

    /// A number in `low..=high`.
    pub fn between(&mut self, low: u64, high: u64) -> u64 {
        if high <= low {
            return low;
        }
        low + self.below(high - low + 1)
    }

    /// True with probability `per_million` / 1,000,000.
    pub fn chance(&mut self, per_million: u32) -> bool {
        per_million > 0 && self.below(1_000_000) < u64::from(per_million)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sequence_is_fixed_by_the_seed() {
        let mut a = SimRng::new(7);
        let mut b = SimRng::new(7);
        let mut c = SimRng::new(8);
        let xs: Vec<u64> = (0..8).map(|_| a.next_u64()).collect();
        let ys: Vec<u64> = (0..8).map(|_| b.next_u64()).collect();
        let zs: Vec<u64> = (0..8).map(|_| c.next_u64()).collect();
        assert_eq!(xs, ys);
        assert_ne!(xs, zs);
        // Pinned: a change of algorithm changes every recorded trace hash.
        assert_eq!(SimRng::new(0).next_u64(), 0x99ec_5f36_cb75_f2b4);
    }

    #[test]
    fn draws_stay_in_range() {
        let mut rng = SimRng::new(1);
        for _ in 0..1000 {
            assert!(rng.below(10) < 10);
            let x = rng.between(5, 9);
            assert!((5..=9).contains(&x));
        }
        assert_eq!(rng.below(0), 0);
        assert!(!rng.chance(0));
        assert!(rng.chance(1_000_000));
    }
}
