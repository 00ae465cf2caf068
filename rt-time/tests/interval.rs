//! `Interval`: the schedule, each `MissedTickBehavior` under a stalled
//! task, and the reset methods. All on a paused clock, so times are exact.

#![cfg(feature = "test-util")]

use rt_time::{advance, interval, interval_at, Duration, Instant, MissedTickBehavior};

const PERIOD: Duration = Duration::from_millis(50);

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

/// Ticks at 0 and 50 ms, then stalls until 170 ms (missing 100 and 150),
/// then records (due, observed) offsets from the start for four ticks.
fn stalled_run(behavior: MissedTickBehavior) -> Vec<(u64, u64)> {
    rt_test::time_runtime(true).block_on(async {
        let start = Instant::now();
        let mut interval = interval(PERIOD);
        interval.set_missed_tick_behavior(behavior);
        assert_eq!(interval.missed_tick_behavior(), behavior);
        assert_eq!(interval.tick().await, start);
        assert_eq!(interval.tick().await, start + ms(50));
        advance(ms(120)).await;
        let mut seen = Vec::new();
        for _ in 0..4 {
            let due = interval.tick().await;
            let offset = |t: Instant| (t - start).as_millis() as u64;
            seen.push((offset(due), offset(Instant::now())));
        }
        seen
    })
}

#[test]
fn burst_catches_up_then_keeps_the_schedule() {
    assert_eq!(
        stalled_run(MissedTickBehavior::Burst),
        [(100, 170), (150, 170), (200, 200), (250, 250)]
    );
}

#[test]
fn delay_restarts_the_schedule_from_the_late_tick() {
    assert_eq!(
        stalled_run(MissedTickBehavior::Delay),
        [(100, 170), (220, 220), (270, 270), (320, 320)]
    );
}

#[test]
fn skip_drops_missed_ticks_and_keeps_the_grid() {
    assert_eq!(
        stalled_run(MissedTickBehavior::Skip),
        [(100, 170), (200, 200), (250, 250), (300, 300)]
    );
}

#[test]
fn default_is_burst_and_period_is_kept() {
    rt_test::time_runtime(true).block_on(async {
        let interval = interval(PERIOD);
        assert_eq!(interval.missed_tick_behavior(), MissedTickBehavior::Burst);
        assert_eq!(interval.period(), PERIOD);
    });
}

#[test]
#[cfg_attr(
    miri,
    ignore = "asserts a bound on real time, which Miri's interpretation of the run exceeds"
)]
fn a_one_hour_interval_on_a_paused_clock_takes_milliseconds() {
    let real = std::time::Instant::now();
    rt_test::time_runtime(true).block_on(async {
        let hour = Duration::from_secs(3600);
        let mut interval = interval(hour);
        let first = interval.tick().await;
        for n in 1..=24u32 {
            assert_eq!(interval.tick().await, first + hour * n);
        }
        assert_eq!(first.elapsed(), hour * 24);
    });
    assert!(real.elapsed() < std::time::Duration::from_secs(5));
}

#[test]
fn interval_at_starts_at_the_given_instant() {
    rt_test::time_runtime(true).block_on(async {
        let start = Instant::now() + ms(30);
        let mut interval = interval_at(start, PERIOD);
        assert_eq!(interval.tick().await, start);
        assert_eq!(Instant::now(), start);
        assert_eq!(interval.tick().await, start + PERIOD);
    });
}

#[test]
fn reset_variants_move_the_next_tick() {
    rt_test::time_runtime(true).block_on(async {
        let start = Instant::now();
        let mut interval = interval(PERIOD);
        interval.tick().await;
        advance(ms(10)).await;

        interval.reset();
        assert_eq!(interval.tick().await, start + ms(60));

        interval.reset_immediately();
        assert_eq!(interval.tick().await, start + ms(60));
        assert_eq!(Instant::now(), start + ms(60));

        interval.reset_after(ms(7));
        assert_eq!(interval.tick().await, start + ms(67));

        interval.reset_at(start + ms(500));
        assert_eq!(interval.tick().await, start + ms(500));
        assert_eq!(interval.tick().await, start + ms(550));
    });
}

#[test]
#[should_panic(expected = "`period` must be non-zero.")]
fn a_zero_period_panics() {
    rt_test::time_runtime(true).block_on(async {
        let _ = interval(Duration::ZERO);
    });
}

#[test]
fn a_reset_past_the_end_of_time_never_ticks_instead_of_panicking() {
    rt_test::time_runtime(true).block_on(async {
        let mut forever = interval(Duration::MAX);
        forever.reset();
        let mut later = interval(PERIOD);
        later.reset_after(Duration::MAX);
        advance(Duration::from_secs(86_400 * 365)).await;
        let tick = std::pin::pin!(later.tick());
        assert!(rt_test::poll_once(tick).is_pending());
    });
}

#[test]
fn a_tick_handed_out_leaves_no_waker_behind() {
    rt_test::time_runtime(true).block_on(async {
        let mut interval = interval(PERIOD);
        interval.tick().await;
        let (woken, waker) = rt_test::counting_waker();
        let mut cx = std::task::Context::from_waker(&waker);
        advance(PERIOD).await;
        assert!(interval.poll_tick(&mut cx).is_ready());
        advance(PERIOD * 2).await;
        assert_eq!(woken.count(), 0, "nobody asked for the next tick yet");
        assert!(
            interval.poll_tick(&mut cx).is_ready(),
            "it is due all the same"
        );
    });
}
