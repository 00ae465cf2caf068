//! Timer errors: [`Elapsed`] from a timeout, and [`Error`] from the timer
//! itself.

use std::error;
use std::fmt;
use std::io;

/// The deadline of a [`timeout`](crate::timeout) passed before its future
/// completed.
#[derive(Debug, PartialEq, Eq)]
pub struct Elapsed(());

impl Elapsed {
    pub(crate) fn new() -> Elapsed {
        Elapsed(())
    }
}

impl fmt::Display for Elapsed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("deadline has elapsed")
    }
}

impl error::Error for Elapsed {}

impl From<Elapsed> for io::Error {
    fn from(elapsed: Elapsed) -> io::Error {
        io::Error::new(io::ErrorKind::TimedOut, elapsed)
    }
}

/// An error from the timer itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Error(Kind);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Shutdown,
    AtCapacity,
    Invalid,
}

impl Error {
    /// The timer was shut down with its runtime.
    pub fn shutdown() -> Error {
        Error(Kind::Shutdown)
    }

    /// Whether the timer was shut down.
    pub fn is_shutdown(&self) -> bool {
        self.0 == Kind::Shutdown
    }

    /// The timer had no room for another entry.
    pub fn at_capacity() -> Error {
        Error(Kind::AtCapacity)
    }

    /// Whether the timer had no room for another entry.
    pub fn is_at_capacity(&self) -> bool {
        self.0 == Kind::AtCapacity
    }

    /// The requested duration is beyond what the timer supports.
    pub fn invalid() -> Error {
        Error(Kind::Invalid)
    }

    /// Whether the requested duration is beyond what the timer supports.
    pub fn is_invalid(&self) -> bool {
        self.0 == Kind::Invalid
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self.0 {
            Kind::Shutdown => {
                "the timer is shutdown, must be called from the context of rt runtime"
            }
            Kind::AtCapacity => "timer is at capacity and cannot create a new entry",
            Kind::Invalid => "timer duration exceeds maximum duration",
        })
    }
}

impl error::Error for Error {}
