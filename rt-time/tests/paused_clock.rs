//! The paused clock: `pause`, `resume`, `advance`, auto-advance, and
//! `Instant::now` following the runtime's clock.

#![cfg(feature = "test-util")]

use rt_time::{advance, pause, resume, sleep, Duration, Instant};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

#[test]
fn auto_advance_jumps_to_the_next_timer() {
    let real = std::time::Instant::now();
    rt_test::time_runtime(true).block_on(async {
        let start = Instant::now();
        sleep(Duration::from_secs(3600)).await;
        assert_eq!(start.elapsed(), Duration::from_secs(3600));
        sleep(Duration::from_millis(1)).await;
        assert_eq!(start.elapsed(), Duration::from_millis(3_600_001));
    });
    assert!(real.elapsed() < std::time::Duration::from_secs(5));
}

#[test]
fn a_paused_clock_stands_still_while_tasks_run() {
    rt_test::time_runtime(true).block_on(async {
        let start = Instant::now();
        for _ in 0..100 {
            rt_core::task::yield_now().await;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
        assert_eq!(Instant::now(), start);
    });
}

#[test]
fn advance_fires_due_timers_and_lets_their_tasks_run() {
    rt_test::time_runtime(true).block_on(async {
        let fired = Arc::new(AtomicBool::new(false));
        let task = {
            let fired = fired.clone();
            rt_core::spawn(async move {
                sleep(Duration::from_millis(10)).await;
                fired.store(true, Ordering::SeqCst);
            })
        };
        rt_core::task::yield_now().await; // let the task register its sleep
        advance(Duration::from_millis(9)).await;
        assert!(!fired.load(Ordering::SeqCst), "fired early");
        advance(Duration::from_millis(1)).await;
        assert!(fired.load(Ordering::SeqCst));
        task.await.unwrap();
    });
}

#[test]
fn pause_and_resume_on_a_running_clock() {
    rt_test::time_runtime(false).block_on(async {
        pause();
        let paused_at = Instant::now();
        std::thread::sleep(std::time::Duration::from_millis(5));
        assert_eq!(Instant::now(), paused_at);
        advance(Duration::from_secs(10)).await;
        assert_eq!(Instant::now(), paused_at + Duration::from_secs(10));
        resume();
        // Running again, from where it stood: never backwards.
        let later = Instant::now();
        assert!(later >= paused_at + Duration::from_secs(10));
        sleep(Duration::from_millis(2)).await;
        assert!(Instant::now() >= later + Duration::from_millis(2));
    });
}

#[test]
#[should_panic(expected = "time is already frozen")]
fn pausing_twice_panics() {
    rt_test::time_runtime(true).block_on(async { pause() });
}

#[test]
#[should_panic(expected = "time is not frozen")]
fn resuming_a_running_clock_panics() {
    rt_test::time_runtime(false).block_on(async { resume() });
}

#[test]
#[should_panic(expected = "time is not frozen")]
fn advancing_a_running_clock_panics() {
    rt_test::time_runtime(false).block_on(advance(Duration::from_secs(1)));
}

#[test]
#[should_panic(expected = "requires an rt runtime with timers enabled")]
fn pause_outside_a_runtime_panics() {
    pause();
}

#[test]
fn instant_now_outside_a_runtime_is_real_time() {
    let before = std::time::Instant::now();
    let now = Instant::now().into_std();
    assert!(now >= before);
    assert_eq!(Instant::from_std(before).into_std(), before);
}

#[test]
fn a_running_blocking_closure_holds_the_paused_clock() {
    use std::sync::atomic::AtomicUsize;
    let parks = Arc::new(AtomicUsize::new(0));
    let rt = {
        let parks = parks.clone();
        rt_core::runtime::Builder::new_current_thread()
            .driver_layer(rt_time::driver_layer(true))
            .on_thread_park(move || {
                parks.fetch_add(1, Ordering::SeqCst);
            })
            .build()
            .unwrap()
    };
    rt.block_on(async move {
        let start = Instant::now();
        let fired = Arc::new(AtomicBool::new(false));
        let sleeper = {
            let fired = fired.clone();
            rt_core::spawn(async move {
                sleep(Duration::from_secs(3600)).await;
                fired.store(true, Ordering::SeqCst);
            })
        };
        let observed = {
            let fired = fired.clone();
            rt_core::task::spawn_blocking(move || {
                // Once the scheduler has parked with nothing to run but this
                // closure's join, a clock that auto-advanced would fire the
                // timer at once; give it a window to show (this only bounds
                // how long a regression has to appear, it orders nothing).
                while parks.load(Ordering::SeqCst) < 1 {
                    std::thread::yield_now();
                }
                let window = std::time::Instant::now();
                while window.elapsed() < std::time::Duration::from_millis(20) {
                    if fired.load(Ordering::SeqCst) {
                        break;
                    }
                    std::thread::yield_now();
                }
                fired.load(Ordering::SeqCst)
            })
        };
        assert!(
            !observed.await.unwrap(),
            "the clock advanced past a running blocking closure"
        );
        sleeper.await.unwrap();
        assert_eq!(start.elapsed(), Duration::from_secs(3600));
    });
}

#[test]
fn pause_is_refused_where_tasks_run_on_several_threads() {
    let rt = rt_core::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .driver_layer(rt_time::multi_thread_driver_layer())
        .build()
        .unwrap();
    let on_block_on = rt.block_on(async { std::panic::catch_unwind(pause) });
    assert!(on_block_on.is_err());
    let in_a_task = rt.block_on(rt.spawn(async { pause() }));
    assert!(in_a_task.unwrap_err().is_panic());
    rt.block_on(async { sleep(Duration::from_millis(1)).await });
}
