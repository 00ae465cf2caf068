//! Errors of the [`watch`](crate::watch) channel.

use std::fmt;

crate::send_error::define_send_error! {
    /// Every receiver is gone; the value comes back.
}

/// Every sender is gone, so no new value will come.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecvError(pub(super) ());

impl fmt::Display for RecvError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("channel closed")
    }
}

impl std::error::Error for RecvError {}
