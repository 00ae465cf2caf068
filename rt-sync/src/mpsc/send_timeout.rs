//! `Sender::send_timeout`: the only part of this crate that needs a timer,
//! so it is compiled only with the `time` feature and must run inside a
//! runtime that has rt-time's driver.

use super::error::SendTimeoutError;
use super::Sender;
use std::time::Duration;

impl<T> Sender<T> {
    /// Waits at most `timeout` for capacity, then sends `value`. On
    /// failure the value comes back inside the error: `Timeout` when the
    /// channel stayed full for the whole duration, `Closed` when the
    /// receiver was dropped or closed.
    ///
    /// ```
    /// use rt_sync::mpsc::{self, error::SendTimeoutError};
    /// use std::time::Duration;
    ///
    /// # let rt = rt_core::runtime::Builder::new_current_thread()
    /// #     .driver_layer(rt_time::driver_layer(true)).build().unwrap();
    /// # rt.block_on(async {
    /// let (tx, mut rx) = mpsc::channel(1);
    /// tx.send_timeout(1, Duration::from_millis(10)).await.unwrap();
    /// // Full, and nobody receives: the value comes back after 10ms.
    /// let err = tx.send_timeout(2, Duration::from_millis(10)).await;
    /// assert_eq!(err, Err(SendTimeoutError::Timeout(2)));
    /// assert_eq!(rx.recv().await, Some(1));
    /// # });
    /// ```
    ///
    /// # Panics
    ///
    /// Panics when polled outside a runtime with rt-time's driver (the
    /// same rule as [`rt_time::timeout`]).
    ///
    /// # Cancel safety
    ///
    /// As for [`send`](Self::send): not cancel-safe, a cancelled call drops
    /// `value`.
    pub async fn send_timeout(
        &self,
        value: T,
        timeout: Duration,
    ) -> Result<(), SendTimeoutError<T>> {
        match rt_time::timeout(timeout, self.reserve()).await {
            Ok(Ok(permit)) => {
                permit.send(value);
                Ok(())
            }
            Ok(Err(_closed)) => Err(SendTimeoutError::Closed(value)),
            Err(_elapsed) => Err(SendTimeoutError::Timeout(value)),
        }
    }
}
