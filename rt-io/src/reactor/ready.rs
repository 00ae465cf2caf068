//! `Ready` and `Interest`: which I/O events a resource saw, and which ones an
//! operation waits for.
//!
//! # Error readiness
//!
//! An error event (say, an ICMP port-unreachable answering a datagram of a
//! connected UDP socket) often comes with no readable or writable event at
//! all, yet the next read or write returns the error instead of blocking.
//! So the driver records it twice: as `ERROR`, which only waits that asked
//! for `Interest::ERROR` see, and as an I/O error bit that ends every wait
//! for reading or writing. The two are consumed apart. A read or write that
//! would block has seen no pending error (the kernel reports a pending
//! socket error before it reports `EAGAIN`), so its clear takes the I/O
//! error bit, and a wait that follows blocks instead of spinning on a stale
//! error; `ERROR` stays for the waits that asked for errors (the error
//! queue, say, is not drained by plain reads).

use std::fmt;
use std::ops;

const READABLE: u16 = 0b000_0001;
const WRITABLE: u16 = 0b000_0010;
const READ_CLOSED: u16 = 0b000_0100;
const WRITE_CLOSED: u16 = 0b000_1000;
const PRIORITY: u16 = 0b001_0000;
const ERROR: u16 = 0b010_0000;
/// The error as waits for reading or writing see it (see the module docs).
const IO_ERROR: u16 = 0b100_0000;

/// What the driver records for an error event: [`Ready::ERROR`] and the
/// error bit that ends waits for reading and writing. Public for the loom
/// models, which play the driver.
pub const ERROR_EVENT: Ready = Ready(ERROR | IO_ERROR);

/// The readiness a resource reported: a set of events seen since the last
/// time an operation found it would block.
///
/// A pending error ends waits for reading and writing too, and the
/// readiness such a wait returns then says so: `is_error` is true, and so
/// are `is_readable` and `is_writable`, since the operation will not block
/// (it returns the error). Such a value carries a bit of its own, so test
/// readiness with the `is_*` methods rather than comparing it with the
/// constants.
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
    /// An error is pending on the resource; what a wait for
    /// [`Interest::ERROR`] returns.
    pub const ERROR: Ready = Ready(ERROR);
    /// Every readiness.
    pub const ALL: Ready =
        Ready(READABLE | WRITABLE | READ_CLOSED | WRITE_CLOSED | PRIORITY | ERROR | IO_ERROR);

    /// Whether no readiness is set.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether a read may go ahead without blocking: the resource is
    /// readable, its read half is closed (the read sees the end), or an
    /// error ended a wait for reading (the read returns the error).
    pub fn is_readable(self) -> bool {
        self.0 & (READABLE | READ_CLOSED | IO_ERROR) != 0
    }

    /// Whether a write may go ahead without blocking: the resource is
    /// writable, its write half is closed, or an error ended a wait for
    /// writing (the write returns the error).
    pub fn is_writable(self) -> bool {
        self.0 & (WRITABLE | WRITE_CLOSED | IO_ERROR) != 0
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

    /// Whether an error is pending: either what a wait for
    /// [`Interest::ERROR`] returned, or an error that ended a wait for
    /// reading or writing.
    pub fn is_error(self) -> bool {
        self.0 & (ERROR | IO_ERROR) != 0
    }

    /// The readiness that satisfies `interest`: the interest's own events
    /// plus the closed/error events that end a wait for them.
    ///
    /// A priority wait is not ended by an error alone: an out-of-band read
    /// need not report a pending socket error, so it could consume the error
    /// readiness (on `WouldBlock`) while the error is still pending for the
    /// readers and writers.
    pub(crate) const fn from_interest(interest: Interest) -> Ready {
        let mut bits = 0;
        if interest.is_readable() {
            bits |= READABLE | READ_CLOSED | IO_ERROR;
        }
        if interest.is_writable() {
            bits |= WRITABLE | WRITE_CLOSED | IO_ERROR;
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

    /// Whether `self` and `other` share a bit.
    pub(crate) fn intersects(self, other: Ready) -> bool {
        self.0 & other.0 != 0
    }

    /// The bits of a readiness that clearing `self` takes away: `self`,
    /// plus the error that ended a read or write wait when `self` names read
    /// or write readiness (the read or write that would block has seen no
    /// pending error). `AsyncFd`'s guards clear this way (Unix only).
    #[cfg(unix)]
    pub(crate) fn clear_mask(self) -> Ready {
        if self.is_readable() || self.is_writable() {
            Ready(self.0 | IO_ERROR)
        } else {
            self
        }
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
            bits |= ERROR_EVENT.0;
        }
        Ready(bits).without_inferred_write_closed()
    }

    /// Drops the write-closed bit that mio's epoll backend infers from an
    /// error event without a hang-up (`EPOLLERR` alone, or with `EPOLLOUT`).
    ///
    /// Closed bits are final here, so taking that inference would mark a
    /// resource that is still usable (a UDP socket after an ICMP error, a
    /// TCP connection after a soft error) closed for good, and a write that
    /// would block would then find it ready again at once, spinning. The
    /// error readiness already ends every read and write wait. A hang-up
    /// (`EPOLLHUP`) also sets read-closed, so a real closure keeps its bit.
    #[cfg(any(target_os = "linux", target_os = "android"))]
    fn without_inferred_write_closed(self) -> Ready {
        if self.0 & ERROR != 0 && self.0 & READ_CLOSED == 0 {
            Ready(self.0 & !WRITE_CLOSED)
        } else {
            self
        }
    }

    /// Other pollers report write-closed only for a real closure.
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    fn without_inferred_write_closed(self) -> Ready {
        self
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
    /// Wait for an error condition. Errors also end waits for reading and
    /// writing (see [`Ready`]); this interest is for errors no read or write
    /// consumes, such as the entries of a socket's error queue
    /// (`MSG_ERRQUEUE`): its readiness stays until a wait for it is cleared.
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
    fn an_error_event_ends_read_and_write_waits() {
        let event = ERROR_EVENT;
        for interest in [
            Interest::READABLE,
            Interest::WRITABLE,
            Interest::ERROR,
            Interest::READABLE | Interest::WRITABLE,
        ] {
            assert!(event.satisfies(interest), "{interest:?}");
            let seen = event.intersection(interest);
            assert!(seen.is_error(), "{interest:?}");
        }
        assert!(!event.satisfies(Interest::PRIORITY));
        // A read or write wait sees the I/O error bit only, not ERROR.
        let read = event.intersection(Interest::READABLE);
        assert!(read.is_readable() && read.is_writable());
        assert!((read - Ready::ERROR) == read);
        // An error wait sees ERROR only.
        let error = event.intersection(Interest::ERROR);
        assert_eq!(error, Ready::ERROR);
        assert!(!error.is_readable() && !error.is_writable());
    }

    #[cfg(unix)]
    #[test]
    fn clearing_read_or_write_readiness_takes_the_io_error() {
        let read = ERROR_EVENT.intersection(Interest::READABLE);
        assert!(Ready::READABLE.clear_mask().intersects(read));
        assert!(Ready::WRITABLE.clear_mask().intersects(read));
        assert!(!Ready::ERROR.clear_mask().intersects(read));
        assert!(!Ready::PRIORITY.clear_mask().intersects(read));
        assert_eq!(Ready::ERROR.clear_mask(), Ready::ERROR);
    }

    #[cfg(any(target_os = "linux", target_os = "android"))]
    #[test]
    fn an_error_without_hang_up_is_not_a_closure() {
        let inferred = Ready::WRITABLE | Ready::WRITE_CLOSED | ERROR_EVENT;
        assert_eq!(
            inferred.without_inferred_write_closed(),
            Ready::WRITABLE | ERROR_EVENT
        );
        let hang_up = Ready::READ_CLOSED | Ready::WRITE_CLOSED | ERROR_EVENT;
        assert_eq!(hang_up.without_inferred_write_closed(), hang_up);
        let no_error = Ready::WRITE_CLOSED;
        assert_eq!(no_error.without_inferred_write_closed(), no_error);
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
