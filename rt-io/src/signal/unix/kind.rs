//! `SignalKind`: which signal a [`Signal`](super::Signal) listens to, with
//! the platform's numbers for the common ones.

use std::os::raw::c_int;

/// A Unix signal number, named by constructors for the common signals.
///
/// ```
/// use rt_io::signal::unix::SignalKind;
///
/// let kind = SignalKind::user_defined1();
/// assert_eq!(SignalKind::from_raw(kind.as_raw_value()), kind);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SignalKind(c_int);

impl SignalKind {
    /// Any signal by its raw number, e.g. a real-time signal.
    ///
    /// Numbers that cannot be listened to (`SIGKILL`, `SIGSTOP`, `SIGILL`,
    /// `SIGFPE`, `SIGSEGV`, negative or too large ones) are accepted here and
    /// rejected with an error by [`signal`](super::signal).
    pub const fn from_raw(signum: c_int) -> SignalKind {
        SignalKind(signum)
    }

    /// The raw signal number.
    pub const fn as_raw_value(&self) -> c_int {
        self.0
    }

    /// `SIGALRM`: a timer set with `alarm` expired.
    pub const fn alarm() -> SignalKind {
        SignalKind(numbers::SIGALRM)
    }

    /// `SIGCHLD`: a child process stopped or exited.
    pub const fn child() -> SignalKind {
        SignalKind(numbers::SIGCHLD)
    }

    /// `SIGHUP`: the controlling terminal went away; daemons often take it
    /// as "reload the configuration".
    pub const fn hangup() -> SignalKind {
        SignalKind(numbers::SIGHUP)
    }

    /// `SIGINT`: the user pressed Ctrl-C.
    pub const fn interrupt() -> SignalKind {
        SignalKind(numbers::SIGINT)
    }

    /// `SIGPIPE`: a write went to a pipe or socket with no reader.
    pub const fn pipe() -> SignalKind {
        SignalKind(numbers::SIGPIPE)
    }

    /// `SIGQUIT`: the user asked to quit with a core dump (Ctrl-\).
    pub const fn quit() -> SignalKind {
        SignalKind(numbers::SIGQUIT)
    }

    /// `SIGTERM`: a polite request to terminate.
    pub const fn terminate() -> SignalKind {
        SignalKind(numbers::SIGTERM)
    }

    /// `SIGUSR1`: meaning defined by the application.
    pub const fn user_defined1() -> SignalKind {
        SignalKind(numbers::SIGUSR1)
    }

    /// `SIGUSR2`: meaning defined by the application.
    pub const fn user_defined2() -> SignalKind {
        SignalKind(numbers::SIGUSR2)
    }

    /// `SIGWINCH`: the terminal window changed size.
    pub const fn window_change() -> SignalKind {
        SignalKind(numbers::SIGWINCH)
    }
}

impl From<c_int> for SignalKind {
    fn from(signum: c_int) -> SignalKind {
        SignalKind::from_raw(signum)
    }
}

impl From<SignalKind> for c_int {
    fn from(kind: SignalKind) -> c_int {
        kind.as_raw_value()
    }
}

/// Signal numbers. The first ones are the same everywhere; the rest differ
/// between Linux (and its MIPS and SPARC ports), Solaris and the BSD family
/// (macOS included).
mod numbers {
    use std::os::raw::c_int;

    pub(super) const SIGHUP: c_int = 1;
    pub(super) const SIGINT: c_int = 2;
    pub(super) const SIGQUIT: c_int = 3;
    pub(super) const SIGPIPE: c_int = 13;
    pub(super) const SIGALRM: c_int = 14;
    pub(super) const SIGTERM: c_int = 15;

    #[cfg(all(
        any(target_os = "linux", target_os = "android"),
        not(any(
            target_arch = "mips",
            target_arch = "mips64",
            target_arch = "sparc",
            target_arch = "sparc64"
        ))
    ))]
    mod platform {
        use std::os::raw::c_int;
        pub(crate) const SIGUSR1: c_int = 10;
        pub(crate) const SIGUSR2: c_int = 12;
        pub(crate) const SIGCHLD: c_int = 17;
        pub(crate) const SIGWINCH: c_int = 28;
    }

    #[cfg(any(
        all(
            any(target_os = "linux", target_os = "android"),
            any(target_arch = "mips", target_arch = "mips64")
        ),
        target_os = "solaris",
        target_os = "illumos"
    ))]
    mod platform {
        use std::os::raw::c_int;
        pub(crate) const SIGUSR1: c_int = 16;
        pub(crate) const SIGUSR2: c_int = 17;
        pub(crate) const SIGCHLD: c_int = 18;
        pub(crate) const SIGWINCH: c_int = 20;
    }

    #[cfg(all(
        any(target_os = "linux", target_os = "android"),
        any(target_arch = "sparc", target_arch = "sparc64")
    ))]
    mod platform {
        use std::os::raw::c_int;
        pub(crate) const SIGUSR1: c_int = 30;
        pub(crate) const SIGUSR2: c_int = 31;
        pub(crate) const SIGCHLD: c_int = 20;
        pub(crate) const SIGWINCH: c_int = 28;
    }

    #[cfg(not(any(
        target_os = "linux",
        target_os = "android",
        target_os = "solaris",
        target_os = "illumos"
    )))]
    mod platform {
        use std::os::raw::c_int;
        pub(crate) const SIGUSR1: c_int = 30;
        pub(crate) const SIGUSR2: c_int = 31;
        pub(crate) const SIGCHLD: c_int = 20;
        pub(crate) const SIGWINCH: c_int = 28;
    }

    pub(super) use platform::{SIGCHLD, SIGUSR1, SIGUSR2, SIGWINCH};
}
