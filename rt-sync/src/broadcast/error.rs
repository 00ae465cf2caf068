//! Errors of the [`broadcast`](crate::broadcast) channel.

use std::fmt;

crate::send_error::define_send_error! {
    /// There is no receiver; the value comes back.
}

/// Why [`Receiver::recv`](super::Receiver::recv) returned no value.
#[derive(Debug, PartialEq, Eq, Clone)]
pub enum RecvError {
    /// Every sender is gone and every buffered value was received.
    Closed,
    /// The receiver fell behind and this many values were overwritten
    /// before it read them; the next receive returns the oldest value
    /// still buffered.
    Lagged(u64),
}

impl fmt::Display for RecvError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecvError::Closed => f.write_str("channel closed"),
            RecvError::Lagged(n) => write!(f, "channel lagged by {n}"),
        }
    }
}

impl std::error::Error for RecvError {}

/// Why [`Receiver::try_recv`](super::Receiver::try_recv) returned no value.
#[derive(Debug, PartialEq, Eq, Clone)]
pub enum TryRecvError {
    /// Nothing new right now.
    Empty,
    /// Every sender is gone and every buffered value was received.
    Closed,
    /// The receiver fell behind by this many values; see
    /// [`RecvError::Lagged`].
    Lagged(u64),
}

impl fmt::Display for TryRecvError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TryRecvError::Empty => f.write_str("channel empty"),
            TryRecvError::Closed => f.write_str("channel closed"),
            TryRecvError::Lagged(n) => write!(f, "channel lagged by {n}"),
        }
    }
}

impl std::error::Error for TryRecvError {}
