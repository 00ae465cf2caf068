//! Which I/O driver a runtime gets: the readiness reactor alone (epoll), or
//! io_uring beside it (Linux, feature `uring`). The builder's choice wins;
//! without one, `RT_IO_DRIVER` (`uring` or `epoll`), read when the runtime
//! is built; without that, epoll. A runtime that asks for io_uring on a
//! kernel (or a build) that cannot give it gets epoll, and its metrics say
//! so.

use super::driver::IoDriver;
use rt_core::runtime::{Driver, DriverHandles, IoDriverKind};
use std::io;

/// The environment variable that picks the I/O driver of runtimes whose
/// builder does not.
pub const IO_DRIVER_ENV: &str = "RT_IO_DRIVER";

/// What a runtime builder asks of its I/O driver.
#[derive(Debug, Clone)]
pub struct IoDriverOptions {
    /// The driver asked for; `None` defers to [`IO_DRIVER_ENV`].
    pub kind: Option<IoDriverKind>,
    /// Events fetched per turn.
    pub events_capacity: usize,
    /// Events fetched per turn that does not wait (see
    /// [`base_driver_with_capacities`](super::base_driver_with_capacities)).
    pub busy_events_capacity: Option<usize>,
    /// Makes the io_uring probe fail as on a kernel without it, to test
    /// the fallback.
    #[doc(hidden)]
    pub force_uring_probe_failure: bool,
}

impl Default for IoDriverOptions {
    fn default() -> IoDriverOptions {
        IoDriverOptions {
            kind: None,
            events_capacity: super::DEFAULT_EVENTS_CAPACITY,
            busy_events_capacity: None,
            force_uring_probe_failure: false,
        }
    }
}

/// The driver kind a runtime asks for: `explicit` when given, else the one
/// [`IO_DRIVER_ENV`] names, else epoll.
///
/// # Errors
///
/// `InvalidInput` when the variable holds anything but `uring` or `epoll`.
pub fn requested_kind(explicit: Option<IoDriverKind>) -> io::Result<IoDriverKind> {
    if let Some(kind) = explicit {
        return Ok(kind);
    }
    match std::env::var_os(IO_DRIVER_ENV) {
        None => Ok(IoDriverKind::Epoll),
        Some(value) => parse_kind(&value),
    }
}

/// The driver an [`IO_DRIVER_ENV`] value names.
fn parse_kind(value: &std::ffi::OsStr) -> io::Result<IoDriverKind> {
    match value.to_str() {
        Some("uring" | "io_uring" | "io-uring") => Ok(IoDriverKind::Uring),
        Some("epoll") => Ok(IoDriverKind::Epoll),
        _ => Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{IO_DRIVER_ENV} must be `uring` or `epoll`, not {value:?}"),
        )),
    }
}

/// The factory a runtime builder installs at the bottom of its driver
/// stack: the driver `options` ask for, probed when the runtime is built,
/// falling back to epoll.
///
/// # Errors
///
/// Those of [`requested_kind`].
pub fn base_driver_for(
    options: IoDriverOptions,
) -> io::Result<
    impl FnOnce(&mut DriverHandles) -> io::Result<Box<dyn Driver>> + Send + Sync + 'static,
> {
    let kind = requested_kind(options.kind)?;
    Ok(move |handles: &mut DriverHandles| {
        let driver = IoDriver::published(
            options.events_capacity,
            options.busy_events_capacity,
            handles,
        )?;
        #[cfg(all(target_os = "linux", feature = "uring"))]
        if kind == IoDriverKind::Uring {
            return crate::uring::driver_beside(driver, &options, handles);
        }
        let _ = kind;
        Ok(Box::new(driver) as Box<dyn Driver>)
    })
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use std::ffi::OsStr;

    #[test]
    fn the_variable_names_a_driver_or_fails_the_build() {
        assert_eq!(
            parse_kind(OsStr::new("uring")).unwrap(),
            IoDriverKind::Uring
        );
        assert_eq!(
            parse_kind(OsStr::new("io_uring")).unwrap(),
            IoDriverKind::Uring
        );
        assert_eq!(
            parse_kind(OsStr::new("epoll")).unwrap(),
            IoDriverKind::Epoll
        );
        let err = parse_kind(OsStr::new("kqueue")).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidInput);
        assert!(err.to_string().contains("RT_IO_DRIVER"), "{err}");
    }

    #[test]
    fn the_builder_choice_wins_over_the_variable() {
        let kind = requested_kind(Some(IoDriverKind::Uring)).unwrap();
        assert_eq!(kind, IoDriverKind::Uring);
    }
}
