//! Streams made from nothing but a value or an iterator: [`iter()`],
//! [`once()`], [`empty()`] and [`pending()`].

mod empty;
mod iter;
mod once;
mod pending;

pub use empty::{empty, Empty};
pub use iter::{iter, Iter};
pub use once::{once, Once};
pub use pending::{pending, Pending};
