//! Shared helpers for the behaviour tests: runtimes with the time layer.

#![allow(dead_code)]

use rt_core::runtime::{Builder, Runtime};

/// A current-thread runtime with timers on a real clock.
pub fn rt() -> Runtime {
    Builder::new_current_thread()
        .driver_layer(rt_time::driver_layer(false))
        .build()
        .unwrap()
}

/// A current-thread runtime with timers on a paused clock.
pub fn paused_rt() -> Runtime {
    Builder::new_current_thread()
        .driver_layer(rt_time::driver_layer(true))
        .build()
        .unwrap()
}
