//! [`Elapsed`]: the error item of the time-based adapters.

use std::error::Error;
use std::fmt;
use std::io;

/// The error a timed-out stream yields in place of an item when its
/// deadline passes first. The stream goes on afterwards: a later item can
/// still arrive.
#[derive(Debug, PartialEq, Eq, Clone, Copy)]
pub struct Elapsed(());

impl Elapsed {
    // Only the time-based adapters (feature `time`) and the tests make one.
    #[cfg_attr(not(feature = "time"), allow(dead_code))]
    pub(crate) fn new() -> Elapsed {
        Elapsed(())
    }
}

impl fmt::Display for Elapsed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("deadline has elapsed")
    }
}

impl Error for Elapsed {}

impl From<Elapsed> for io::Error {
    fn from(elapsed: Elapsed) -> io::Error {
        io::Error::new(io::ErrorKind::TimedOut, elapsed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_and_io_conversion() {
        assert_eq!(Elapsed::new().to_string(), "deadline has elapsed");
        let err = io::Error::from(Elapsed::new());
        assert_eq!(err.kind(), io::ErrorKind::TimedOut);
        assert_eq!(err.to_string(), "deadline has elapsed");
    }
}
