//! The one fast random number generator, used wherever the runtime makes a
//! random choice: which worker to steal from, which `select!` branch to poll
//! first, where `StreamMap` starts.
//!
//! Every choice goes through a per-thread generator. A runtime built with a
//! seed installs a generator derived from it on each of its threads, which
//! makes those choices reproducible run after run.

use std::cell::Cell;
use std::collections::hash_map::RandomState;
use std::fmt;
use std::hash::{BuildHasher, Hasher};

/// A small xorshift generator (Marsaglia's xorshift+ on two 32-bit words).
///
/// Not cryptographic; fast and good enough to spread scheduling choices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FastRand {
    one: u32,
    two: u32,
}

impl FastRand {
    /// A generator fixed by `seed`.
    pub fn from_seed(seed: u64) -> FastRand {
        // splitmix64 spreads small or similar seeds over the whole state.
        let mixed = splitmix64(seed);
        let one = (mixed >> 32) as u32;
        let mut two = mixed as u32;
        if one == 0 && two == 0 {
            two = 1;
        }
        FastRand { one, two }
    }

    /// A generator seeded from the process's random hash keys.
    pub fn new() -> FastRand {
        let mut hasher = RandomState::new().build_hasher();
        hasher.write_u64(COUNTER.with(|c| {
            let n = c.get();
            c.set(n.wrapping_add(1));
            n
        }));
        FastRand::from_seed(hasher.finish())
    }

    /// The next 32 random bits.
    pub fn fastrand(&mut self) -> u32 {
        let mut s1 = self.one;
        let s0 = self.two;
        s1 ^= s1 << 17;
        s1 = s1 ^ s0 ^ (s1 >> 7) ^ (s0 >> 16);
        self.one = s0;
        self.two = s1;
        s0.wrapping_add(s1)
    }

    /// A number in `0..n` (`0` when `n` is `0`), by multiply-and-shift
    /// rather than the slower and more biased modulo.
    pub fn fastrand_n(&mut self, n: u32) -> u32 {
        ((self.fastrand() as u64 * n as u64) >> 32) as u32
    }
}

impl Default for FastRand {
    fn default() -> Self {
        FastRand::new()
    }
}

fn splitmix64(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = x;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Hands out a reproducible sequence of seeds from one root seed: one for
/// each worker thread, blocking thread or nested generator.
#[derive(Debug)]
pub struct SeedGenerator {
    state: crate::loom::sync::Mutex<u64>,
}

impl SeedGenerator {
    /// A generator rooted at `seed`.
    pub fn new(seed: u64) -> SeedGenerator {
        SeedGenerator {
            state: crate::loom::sync::Mutex::new(seed),
        }
    }

    /// The next seed in the sequence.
    pub fn next_seed(&self) -> u64 {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        *state = splitmix64(*state);
        *state
    }
}

crate::loom::thread_local! {
    static COUNTER: Cell<u64> = const { Cell::new(0) };
    static THREAD_RNG: Cell<Option<FastRand>> = const { Cell::new(None) };
}

/// A random number in `0..n` from this thread's generator.
pub fn thread_rng_n(n: u32) -> u32 {
    THREAD_RNG.with(|cell| {
        let mut rng = cell.get().unwrap_or_else(FastRand::new);
        let value = rng.fastrand_n(n);
        cell.set(Some(rng));
        value
    })
}

/// Replaces this thread's generator and returns the previous one, so that a
/// runtime can install its seeded generator on enter and restore on exit.
pub fn replace_thread_rng(rng: Option<FastRand>) -> Option<FastRand> {
    THREAD_RNG.with(|cell| cell.replace(rng))
}

/// The environment variable that names the seed of a run to replay.
pub const SEED_VAR: &str = "RT_SEED";

/// A value of [`SEED_VAR`] that is not a decimal `u64`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvalidSeed {
    value: String,
}

impl fmt::Display for InvalidSeed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{SEED_VAR} must be an unsigned 64-bit integer, got {:?}",
            self.value
        )
    }
}

impl std::error::Error for InvalidSeed {}

/// The seed named by `RT_SEED`: `None` when the variable is unset, an error
/// when it holds anything but a decimal `u64` (surrounding blanks allowed).
///
/// The one reader of the variable, shared by the runtime builder and the
/// test macros. A malformed value is an error rather than a silently random
/// seed: whoever set it asked for a replay.
pub fn seed_from_env() -> Result<Option<u64>, InvalidSeed> {
    match std::env::var_os(SEED_VAR) {
        None => Ok(None),
        Some(raw) => parse_seed(&raw.to_string_lossy()).map(Some),
    }
}

fn parse_seed(value: &str) -> Result<u64, InvalidSeed> {
    value.trim().parse().map_err(|_| InvalidSeed {
        value: value.to_string(),
    })
}

/// A fresh random seed, for a run that was given none.
pub fn random_seed() -> u64 {
    let mut rng = FastRand::new();
    ((rng.fastrand() as u64) << 32) | rng.fastrand() as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_values() {
        assert_eq!(parse_seed(" 1234\n"), Ok(1234));
        assert_eq!(parse_seed(&u64::MAX.to_string()), Ok(u64::MAX));
        let err = parse_seed("12ab").unwrap_err();
        assert_eq!(
            err.to_string(),
            "RT_SEED must be an unsigned 64-bit integer, got \"12ab\""
        );
        assert!(parse_seed("-1").is_err());
        assert!(parse_seed("").is_err());
    }

    #[test]
    fn same_seed_same_sequence() {
        let mut a = FastRand::from_seed(42);
        let mut b = FastRand::from_seed(42);
        let xs: Vec<u32> = (0..16).map(|_| a.fastrand_n(1000)).collect();
        let ys: Vec<u32> = (0..16).map(|_| b.fastrand_n(1000)).collect();
        assert_eq!(xs, ys);
        assert_ne!(FastRand::from_seed(1), FastRand::from_seed(2));
    }

    #[test]
    fn bounded_output_covers_range() {
        let mut rng = FastRand::from_seed(7);
        let mut seen = [false; 8];
        for _ in 0..1000 {
            let v = rng.fastrand_n(8) as usize;
            seen[v] = true;
        }
        assert!(seen.iter().all(|s| *s));
        assert_eq!(rng.fastrand_n(0), 0);
    }

    #[test]
    fn thread_generator_can_be_seeded_and_restored() {
        let previous = replace_thread_rng(Some(FastRand::from_seed(3)));
        let first: Vec<u32> = (0..8).map(|_| thread_rng_n(100)).collect();
        replace_thread_rng(Some(FastRand::from_seed(3)));
        let second: Vec<u32> = (0..8).map(|_| thread_rng_n(100)).collect();
        assert_eq!(first, second);
        replace_thread_rng(previous);
    }

    #[test]
    fn seed_generator_is_reproducible() {
        let a = SeedGenerator::new(9);
        let b = SeedGenerator::new(9);
        assert_eq!(a.next_seed(), b.next_seed());
        assert_eq!(a.next_seed(), b.next_seed());
    }
}
