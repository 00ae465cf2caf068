//! Multi-producer, single-consumer channels, bounded and unbounded.
//!
//! [`channel`] gives backpressure: a sender waits while the channel holds
//! `buffer` messages (or reserved slots). [`unbounded_channel`] never makes
//! a sender wait. In both, messages from one sender arrive in the order it
//! sent them, and closing (dropping every sender, or
//! [`Receiver::close`]) never loses a message that was accepted: the
//! receiver drains them before it sees `None`.
//!
//! Messages are stored in blocks of 32 slots that are reused once read.
//!
//! `Sender::send_timeout` (feature `time`, on by default) is the one method
//! that needs a timer: it must run in a runtime with rt-time's driver.

mod block;
mod bounded;
mod chan;
pub mod error;
mod receiver;
mod semaphore;
#[cfg(feature = "time")]
mod send_timeout;
mod sender;
mod unbounded;

pub use bounded::{channel, OwnedPermit, Permit, PermitIterator, Receiver, Sender, WeakSender};
pub use unbounded::{unbounded_channel, UnboundedReceiver, UnboundedSender, WeakUnboundedSender};
