//! Each host's own clock, which may run fast or slow against the
//! simulation's (clock skew, set with [`set_clock_skew`](crate::set_clock_skew)).
//!
//! `rt::time` inside a simulation is the simulation's clock, the same on
//! every host. Software that should see its host's skewed clock reads it
//! here: [`now`] is the time since the simulation started as the current
//! host's clock counts it, and [`sleep`] waits a duration of that clock.

use crate::host::expect_current_host;
use crate::world::with_world;
use std::time::Duration;

const MILLION: i128 = 1_000_000;

/// `global` virtual time as a clock running `skew_ppm` fast counts it.
fn local(global: Duration, skew_ppm: i64) -> Duration {
    let nanos = global.as_nanos() as i128;
    let scaled = nanos * (MILLION + i128::from(skew_ppm)) / MILLION;
    Duration::from_nanos(u64::try_from(scaled.max(0)).unwrap_or(u64::MAX))
}

/// How much of the simulation's time passes while a clock running
/// `skew_ppm` fast counts `local`.
fn global(local: Duration, skew_ppm: i64) -> Duration {
    let nanos = local.as_nanos() as i128;
    let rate = (MILLION + i128::from(skew_ppm)).max(1);
    Duration::from_nanos(u64::try_from(nanos * MILLION / rate).unwrap_or(u64::MAX))
}

/// Time since the simulation started, by the current host's clock.
///
/// # Panics
///
/// Outside a host's task in a simulation.
#[track_caller]
pub fn now() -> Duration {
    let host = expect_current_host();
    with_world(|w| local(w.now(), w.hosts[host].skew_ppm))
}

/// Waits until the current host's clock has counted `duration`.
///
/// # Panics
///
/// Outside a host's task in a simulation.
#[track_caller]
pub fn sleep(duration: Duration) -> rt_time::Sleep {
    let host = expect_current_host();
    let skew = with_world(|w| w.hosts[host].skew_ppm);
    rt_time::sleep(global(duration, skew))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fast_clock_counts_more_and_sleeps_less() {
        let second = Duration::from_secs(1);
        assert_eq!(local(second, 0), second);
        assert_eq!(local(second, 100_000), Duration::from_millis(1100));
        assert_eq!(local(second, -500_000), Duration::from_millis(500));
        assert_eq!(global(Duration::from_millis(1100), 100_000), second);
        assert_eq!(global(Duration::from_millis(500), -500_000), second);
    }
}
