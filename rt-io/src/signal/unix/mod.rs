//! Unix signals as streams of notifications: [`signal`] returns a
//! [`Signal`] for one [`SignalKind`], whose [`recv`](Signal::recv) completes
//! each time the signal arrived since the previous call.
//!
//! Deliveries coalesce: however many times a signal arrives between two
//! `recv` calls, the next call completes once. Every `Signal` of the same
//! kind is notified, whichever runtime polls it. The first `Signal` of a kind
//! installs a process-wide handler that stays for the life of the process,
//! so from then on the signal no longer has its default effect (for
//! example, `SIGINT` no longer ends the program) even after every `Signal`
//! is dropped. Handlers installed by other code through
//! `signal-hook-registry` keep running alongside.

mod kind;
mod stream;

pub use kind::SignalKind;
#[doc(hidden)]
pub use stream::listener_count;
pub use stream::{signal, Signal};
