//! [`ctrl_c`]: wait once for the user's interrupt.

use std::io;

/// Completes when the process next receives `SIGINT` (Ctrl-C).
///
/// The handler is installed when the returned future is first polled, and
/// stays for the life of the process: from then on Ctrl-C no longer ends the
/// program by default, so the program should exit on its own once this
/// completes. To react to more than one interrupt, keep one
/// [`Signal`](super::unix::Signal) of
/// [`SignalKind::interrupt`](super::unix::SignalKind::interrupt) instead of
/// calling this in a loop, which could miss an interrupt between calls.
///
/// # Errors
///
/// Fails if the handler cannot be installed.
///
/// # Examples
///
/// ```
/// use std::future::{poll_fn, Future};
/// use std::task::Poll;
///
/// # fn main() -> std::io::Result<()> {
/// let rt = rt_core::runtime::Builder::new_current_thread().build()?;
/// rt.block_on(async {
///     let mut interrupted = std::pin::pin!(rt_io::signal::ctrl_c());
///     // Poll once so the handler is in place, then interrupt ourselves
///     // (a real program waits for the user instead).
///     poll_fn(|cx| {
///         assert!(interrupted.as_mut().poll(cx).is_pending());
///         Poll::Ready(())
///     })
///     .await;
///     std::process::Command::new("kill")
///         .args(["-INT", &std::process::id().to_string()])
///         .status()?;
///     interrupted.await?;
///     println!("shutting down");
///     Ok(())
/// })
/// # }
/// ```
pub async fn ctrl_c() -> io::Result<()> {
    #[cfg(unix)]
    let mut interrupts = super::unix::signal(super::unix::SignalKind::interrupt())?;
    #[cfg(windows)]
    let mut interrupts = super::windows::ctrl_c()?;
    interrupts.recv().await;
    Ok(())
}
