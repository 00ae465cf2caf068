//! `Ready` and `Interest`: which I/O events a resource saw, and which ones an
//! operation waits for.

use std::fmt;
use std::ops;

const READABLE: u16 = 0b00_0001;
const WRITABLE: u16 = 0b00_0010;
const READ_CLOSED: u16 = 0b00_0100;
const WRITE_CLOSED: u16 = 0b00_1000;
const PRIORITY: u16 = 0b01_0000;
const ERROR: u16 = 0b10_0000;

/// The readiness a resource reported: a set of events seen since the last
/// time an operation found it would block.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Ready(u16);

impl Ready {
    /// No readiness.
    pub const EMPTY: Ready = Ready(0);
    /// Readable.
    pub const READABLE: Ready = Ready(READABLE);
    /// Writable.
    pub const WRITABLE: Ready = Ready(WRITABLE);
    /// The read half was closed by the peer.
    pub const READ_CLOSED: Ready = Ready(READ_CLOSED);
    /// The write half was closed.
    pub const WRITE_CLOSED: Ready = Ready(WRITE_CLOSED);
    /// Priority (out-of-band) data is available.
    pub const PRIORITY: Ready = Ready(PRIORITY);
    /// An error is pending on the resource.
    pub const ERROR: Ready = Ready(ERROR);
    /// Every readiness.
    pub const ALL: Ready =
        Ready(READABLE | WRITABLE | READ_CLOSED | WRITE_CLOSED | PRIORITY | ERROR);

    /// Whether no readiness is set.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the readable bit is set.
    pub fn is_readable(self) -> bool {
        self.0 & (READABLE | READ_CLOSED) != 0
    }

    /// Whether the writable bit is set.
    pub fn is_writable(self) -> bool {
        self.0 & (WRITABLE | WRITE_CLOSED) != 0
    }

    /// Whether the read half was closed.
    pub fn is_read_closed(self) -> bool {
        self.0 & READ_CLOSED != 0
    }

    /// Whether the write half was closed.
    pub fn is_write_closed(self) -> bool {
        self.0 & WRITE_CLOSED != 0
    }

    /// Whether priority data is available.
    pub fn is_priority(self) -> bool {
        self.0 & PRIORITY != 0
    }

    /// Whether an error is pending.
    pub fn is_error(self) -> bool {
        self.0 & ERROR != 0
    }

    /// The readiness that satisfies `interest`: the interest's own events
    /// plus the closed/error events that end a wait for them.
    pub(crate) fn from_interest(interest: Interest) -> Ready {
        let mut bits = 0;
        if interest.is_readable() {
            bits |= READABLE | READ_CLOSED;
        }
        if interest.is_writable() {
            bits |= WRITABLE | WRITE_CLOSED;
        }
        if interest.is_priority() {
            bits |= PRIORITY | READ_CLOSED;
        }
        if interest.is_error() {
            bits |= ERROR;
        }
        Ready(bits)
    }

    /// The part of `self` that `interest` cares about.
    pub(crate) fn intersection(self, interest: Interest) -> Ready {
        Ready(self.0 & Ready::from_interest(interest).0)
    }

    /// Whether `self` satisfies `interest`.
    pub(crate) fn satisfies(self, interest: Interest) -> bool {
        !self.intersection(interest).is_empty()
    }

    /// Converts a mio event.
    pub(crate) fn from_mio(event: &mio::event::Event) -> Ready {
        let mut bits = 0;
        if event.is_readable() {
            bits |= READABLE;
        }
        if event.is_writable() {
            bits |= WRITABLE;
        }
        if event.is_read_closed() {
            bits |= READ_CLOSED;
        }
        if event.is_write_closed() {
            bits |= WRITE_CLOSED;
        }
        if event.is_priority() {
            bits |= PRIORITY;
        }
        if event.is_error() {
            bits |= ERROR;
        }
        Ready(bits)
    }

    pub(crate) const fn as_usize(self) -> usize {
        self.0 as usize
    }

    pub(crate) const fn from_usize(bits: usize) -> Ready {
        Ready((bits as u16) & Ready::ALL.0)
    }
}

impl ops::BitOr for Ready {
    type Output = Ready;
    fn bitor(self, other: Ready) -> Ready {
        Ready(self.0 | other.0)
    }
}

impl ops::BitOrAssign for Ready {
    fn bitor_assign(&mut self, other: Ready) {
        self.0 |= other.0;
    }
}

impl ops::Sub for Ready {
    type Output = Ready;
    fn sub(self, other: Ready) -> Ready {
        Ready(self.0 & !other.0)
    }
}

impl fmt::Debug for Ready {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Ready")
            .field("is_readable", &self.is_readable())
            .field("is_writable", &self.is_writable())
            .field("is_read_closed", &self.is_read_closed())
            .field("is_write_closed", &self.is_write_closed())
            .field("is_priority", &self.is_priority())
            .field("is_error", &self.is_error())
            .finish()
    }
}

/// The events an operation waits for; combine with `|`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Interest(u8);

impl Interest {
    /// Wait until the resource is readable.
    pub const READABLE: Interest = Interest(1);
    /// Wait until the resource is writable.
    pub const WRITABLE: Interest = Interest(2);
    /// Wait for priority data (Linux `EPOLLPRI`).
    pub const PRIORITY: Interest = Interest(4);
    /// Wait for an error condition.
    pub const ERROR: Interest = Interest(8);

    /// Whether the interest includes readable.
    pub const fn is_readable(self) -> bool {
        self.0 & 1 != 0
    }

    /// Whether the interest includes writable.
    pub const fn is_writable(self) -> bool {
        self.0 & 2 != 0
    }

    /// Whether the interest includes priority.
    pub const fn is_priority(self) -> bool {
        self.0 & 4 != 0
    }

    /// Whether the interest includes error.
    pub const fn is_error(self) -> bool {
        self.0 & 8 != 0
    }

    /// Both interests.
    pub const fn add(self, other: Interest) -> Interest {
        Interest(self.0 | other.0)
    }

    /// `self` without `other`, or `None` if nothing is left.
    pub fn remove(self, other: Interest) -> Option<Interest> {
        let bits = self.0 & !other.0;
        (bits != 0).then_some(Interest(bits))
    }

    /// The mio interest to register with. Error events are always reported
    /// by the OS, so an error-only interest registers for readable events.
    pub(crate) fn to_mio(self) -> mio::Interest {
        let mut out: Option<mio::Interest> = None;
        let mut add = |i: mio::Interest| {
            out = Some(match out {
                Some(o) => o.add(i),
                None => i,
            })
        };
        if self.is_readable() {
            add(mio::Interest::READABLE);
        }
        if self.is_writable() {
            add(mio::Interest::WRITABLE);
        }
        #[cfg(any(target_os = "linux", target_os = "android"))]
        if self.is_priority() {
            add(mio::Interest::PRIORITY);
        }
        out.unwrap_or(mio::Interest::READABLE)
    }
}

impl ops::BitOr for Interest {
    type Output = Interest;
    fn bitor(self, other: Interest) -> Interest {
        self.add(other)
    }
}

impl ops::BitOrAssign for Interest {
    fn bitor_assign(&mut self, other: Interest) {
        *self = self.add(other);
    }
}

impl fmt::Debug for Interest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names = [
            (Interest::READABLE, "READABLE"),
            (Interest::WRITABLE, "WRITABLE"),
            (Interest::PRIORITY, "PRIORITY"),
            (Interest::ERROR, "ERROR"),
        ];
        let mut first = true;
        for (flag, name) in names {
            if self.0 & flag.0 != 0 {
                if !first {
                    f.write_str(" | ")?;
                }
                f.write_str(name)?;
                first = false;
            }
        }
        Ok(())
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    #[test]
    fn interest_satisfaction_includes_closed_and_error_bits() {
        assert!(Ready::READ_CLOSED.satisfies(Interest::READABLE));
        assert!(!Ready::READ_CLOSED.satisfies(Interest::WRITABLE));
        assert!(Ready::WRITE_CLOSED.satisfies(Interest::WRITABLE));
        assert!(Ready::ERROR.satisfies(Interest::ERROR));
        assert!(!Ready::ERROR.satisfies(Interest::READABLE));
        assert!(Ready::READ_CLOSED.satisfies(Interest::PRIORITY));
        let both = Interest::READABLE | Interest::WRITABLE;
        assert_eq!(
            (Ready::READABLE | Ready::PRIORITY).intersection(both),
            Ready::READABLE
        );
    }

    #[test]
    fn interest_add_remove_and_debug() {
        let i = Interest::READABLE.add(Interest::ERROR);
        assert!(i.is_readable() && i.is_error() && !i.is_writable());
        assert_eq!(i.remove(Interest::ERROR), Some(Interest::READABLE));
        assert_eq!(Interest::READABLE.remove(Interest::READABLE), None);
        assert_eq!(format!("{i:?}"), "READABLE | ERROR");
    }

    #[test]
    fn ready_bit_round_trip() {
        let r = Ready::READABLE | Ready::WRITE_CLOSED;
        assert_eq!(Ready::from_usize(r.as_usize()), r);
        assert!(r.is_readable() && r.is_writable() && r.is_write_closed());
        assert!((r - Ready::READABLE - Ready::WRITE_CLOSED).is_empty());
    }
}
