//! Errors of the [`mpsc`](crate::mpsc) channels.

use std::fmt;

crate::send_error::define_send_error! {
    /// The receiver is gone (or closed); the message comes back.
}

/// Why `try_send` (or `try_reserve`) did not send; the message comes back.
#[derive(PartialEq, Eq, Clone, Copy)]
pub enum TrySendError<T> {
    /// The channel is full right now.
    Full(T),
    /// The receiver is gone (or closed).
    Closed(T),
}

impl<T> TrySendError<T> {
    /// The message that was not sent.
    pub fn into_inner(self) -> T {
        match self {
            TrySendError::Full(value) | TrySendError::Closed(value) => value,
        }
    }

    /// Whether the channel was full.
    pub fn is_full(&self) -> bool {
        matches!(self, TrySendError::Full(_))
    }

    /// Whether the channel was closed.
    pub fn is_closed(&self) -> bool {
        matches!(self, TrySendError::Closed(_))
    }
}

impl<T> fmt::Debug for TrySendError<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TrySendError::Full(_) => f.write_str("Full(..)"),
            TrySendError::Closed(_) => f.write_str("Closed(..)"),
        }
    }
}

impl<T> fmt::Display for TrySendError<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TrySendError::Full(_) => f.write_str("no available capacity"),
            TrySendError::Closed(_) => f.write_str("channel closed"),
        }
    }
}

impl<T> std::error::Error for TrySendError<T> {}

impl<T> From<SendError<T>> for TrySendError<T> {
    fn from(err: SendError<T>) -> Self {
        TrySendError::Closed(err.0)
    }
}

/// Why `try_recv` returned no message.
#[derive(PartialEq, Eq, Clone, Copy, Debug)]
pub enum TryRecvError {
    /// No message right now; more may come.
    Empty,
    /// Every sender is gone (or the channel was closed) and every message
    /// has been received.
    Disconnected,
}

impl fmt::Display for TryRecvError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TryRecvError::Empty => f.write_str("receiving on an empty channel"),
            TryRecvError::Disconnected => f.write_str("receiving on a closed channel"),
        }
    }
}

impl std::error::Error for TryRecvError {}

/// Why [`Sender::send_timeout`](super::Sender::send_timeout) did not send;
/// the message comes back.
#[cfg(feature = "time")]
#[derive(PartialEq, Eq, Clone, Copy)]
pub enum SendTimeoutError<T> {
    /// The channel stayed full until the timeout elapsed.
    Timeout(T),
    /// The receiver is gone (or closed).
    Closed(T),
}

#[cfg(feature = "time")]
impl<T> SendTimeoutError<T> {
    /// The message that was not sent.
    pub fn into_inner(self) -> T {
        match self {
            SendTimeoutError::Timeout(value) | SendTimeoutError::Closed(value) => value,
        }
    }
}

#[cfg(feature = "time")]
impl<T> fmt::Debug for SendTimeoutError<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SendTimeoutError::Timeout(_) => f.write_str("Timeout(..)"),
            SendTimeoutError::Closed(_) => f.write_str("Closed(..)"),
        }
    }
}

#[cfg(feature = "time")]
impl<T> fmt::Display for SendTimeoutError<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SendTimeoutError::Timeout(_) => f.write_str("timed out waiting on send operation"),
            SendTimeoutError::Closed(_) => f.write_str("channel closed"),
        }
    }
}

#[cfg(feature = "time")]
impl<T> std::error::Error for SendTimeoutError<T> {}
