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
//! `Sender::send_timeout` is not provided yet: it needs timers, which live
//! outside this crate.

mod block;
mod bounded;
mod chan;
pub mod error;
mod unbounded;

pub use bounded::{channel, OwnedPermit, Permit, PermitIterator, Receiver, Sender, WeakSender};
pub use unbounded::{unbounded_channel, UnboundedReceiver, UnboundedSender, WeakUnboundedSender};
