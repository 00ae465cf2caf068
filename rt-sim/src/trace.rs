//! The record of a run: every delivery, drop and fault, with its virtual
//! time, and a hash of the whole record.
//!
//! The hash is FNV-1a (64 bits) over a fixed encoding of each event (its
//! time in nanoseconds and its text, both as bytes), chained in the order
//! the events happened. The encoding names nothing that varies between
//! processes (no pointers, no real time, no `HashMap` order), so the same
//! seed gives the same hash in any process and any build profile; two runs
//! that differ anywhere in what they did differ in their hash.

use std::fmt;
use std::time::Duration;

/// One thing that happened in the simulated world.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TraceEvent {
    /// Virtual time since the simulation started.
    pub at: Duration,
    /// What happened, in words: `deliver tcp 10.0.0.1:49152 -> 10.0.0.2:80 5 bytes`.
    pub what: String,
}

impl fmt::Display for TraceEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:>12.6}s {}", self.at.as_secs_f64(), self.what)
    }
}

/// The events of a run and their running hash.
#[derive(Debug, Clone)]
pub struct Trace {
    events: Vec<TraceEvent>,
    hash: u64,
    keep: bool,
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

impl Trace {
    /// An empty trace; `keep` says whether the events are kept (the hash is
    /// always computed).
    pub(crate) fn new(keep: bool) -> Trace {
        Trace {
            events: Vec::new(),
            hash: FNV_OFFSET,
            keep,
        }
    }

    /// Appends an event.
    pub(crate) fn record(&mut self, at: Duration, what: String) {
        let nanos = u64::try_from(at.as_nanos()).unwrap_or(u64::MAX);
        self.mix(&nanos.to_le_bytes());
        self.mix(what.as_bytes());
        // A separator, so that "ab"+"c" and "a"+"bc" hash apart.
        self.mix(&[0xff]);
        if self.keep {
            self.events.push(TraceEvent { at, what });
        }
    }

    fn mix(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.hash ^= u64::from(byte);
            self.hash = self.hash.wrapping_mul(FNV_PRIME);
        }
    }

    /// The hash of every event recorded so far.
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The events, when the simulation keeps them.
    pub fn events(&self) -> &[TraceEvent] {
        &self.events
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hash_depends_on_every_event_and_its_time() {
        let run = |events: &[(u64, &str)]| {
            let mut trace = Trace::new(true);
            for (ms, what) in events {
                trace.record(Duration::from_millis(*ms), what.to_string());
            }
            trace.hash()
        };
        let base = run(&[(1, "a"), (2, "b")]);
        assert_eq!(base, run(&[(1, "a"), (2, "b")]));
        assert_ne!(base, run(&[(1, "a"), (3, "b")]));
        assert_ne!(base, run(&[(2, "b"), (1, "a")]));
        assert_ne!(run(&[(1, "ab"), (1, "c")]), run(&[(1, "a"), (1, "bc")]));
        // Pinned: the encoding is part of the determinism promise.
        assert_eq!(run(&[]), FNV_OFFSET);
    }
}
