//! What a link between two hosts does to the packets crossing it.

use crate::rng::SimRng;
use std::time::Duration;

/// How long a packet takes to cross a link.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Latency {
    /// Always the same.
    Fixed(Duration),
    /// Uniformly distributed between `min` and `max` (inclusive), drawn per
    /// packet from the simulation's generator.
    Uniform {
        /// The shortest crossing.
        min: Duration,
        /// The longest crossing.
        max: Duration,
    },
}

impl Latency {
    pub(crate) fn sample(&self, rng: &mut SimRng) -> Duration {
        match *self {
            Latency::Fixed(d) => d,
            Latency::Uniform { min, max } => {
                let nanos = |d: Duration| u64::try_from(d.as_nanos()).unwrap_or(u64::MAX);
                Duration::from_nanos(rng.between(nanos(min), nanos(max)))
            }
        }
    }
}

/// The behaviour of one direction of a link. Loss, duplication and
/// reordering apply to UDP datagrams; TCP is reliable and ordered, so a
/// TCP segment only takes the latency (and waits out partitions).
///
/// Probabilities are in parts per million: `loss_ppm: 10_000` drops one
/// datagram in a hundred.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LinkConfig {
    /// Time to cross the link.
    pub latency: Latency,
    /// Chance that a datagram is lost.
    pub loss_ppm: u32,
    /// Chance that a datagram arrives twice (the copy takes its own
    /// latency).
    pub duplicate_ppm: u32,
    /// Chance that a datagram is held back by up to `reorder_delay` more,
    /// so that later ones overtake it.
    pub reorder_ppm: u32,
    /// The most a reordered datagram is held back.
    pub reorder_delay: Duration,
}

impl Default for LinkConfig {
    /// A clean link with 1 ms of latency.
    fn default() -> LinkConfig {
        LinkConfig {
            latency: Latency::Fixed(Duration::from_millis(1)),
            loss_ppm: 0,
            duplicate_ppm: 0,
            reorder_ppm: 0,
            reorder_delay: Duration::from_millis(10),
        }
    }
}

impl LinkConfig {
    /// The link between a host and itself (loopback): instant and clean.
    pub(crate) fn loopback() -> LinkConfig {
        LinkConfig {
            latency: Latency::Fixed(Duration::ZERO),
            ..LinkConfig::default()
        }
    }
}
