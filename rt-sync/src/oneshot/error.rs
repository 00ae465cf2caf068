//! Errors of the [`oneshot`](crate::oneshot) channel.

use std::fmt;

/// The sender was dropped without sending a value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecvError(pub(super) ());

impl fmt::Display for RecvError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("channel closed")
    }
}

impl std::error::Error for RecvError {}

/// Why [`Receiver::try_recv`](super::Receiver::try_recv) returned no value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TryRecvError {
    /// No value was sent yet; one may still come.
    Empty,
    /// The sender was dropped without sending, or the value was already
    /// taken.
    Closed,
}

impl fmt::Display for TryRecvError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TryRecvError::Empty => f.write_str("channel empty"),
            TryRecvError::Closed => f.write_str("channel closed"),
        }
    }
}

impl std::error::Error for TryRecvError {}
