//! Events for a registration that is gone. epoll keys its entries on the
//! open file, not on the descriptor number: when an `AsyncFd`'s descriptor
//! is closed while a duplicate keeps the file open, or when the value
//! inside the `AsyncFd` was swapped with `get_mut`, deregistering fails and
//! the entry stays in epoll under the old token. Its next event must reach
//! nobody: not the released state, and not a newer registration that took
//! over the released slot.
//!
//! Each scenario leaves such an entry behind, registers a fresh resource,
//! makes the stale file readable, and then waits for a marker event that
//! the kernel queued after the stale one, so that the driver has dispatched
//! both when the assertions run. Under memcheck the same tests show that
//! nothing touches freed memory.
// Unix only: `AsyncFd` and Unix sockets.
#![cfg(unix)]
// Sockets: Miri does not emulate socket system calls.
#![cfg(not(miri))]
#![cfg(all(feature = "net", any(target_os = "linux", target_os = "android")))]

use rt_io::net::unix::AsyncFd;
use rt_io::Interest;
use rt_test::{bounded, io_time_runtime, io_time_runtime_multi_thread};
use std::io::Write;
use std::os::fd::AsRawFd;
use std::os::unix::net::{UnixDatagram, UnixStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};

/// A waker that counts its wakes.
struct Count(AtomicUsize);

impl Wake for Count {
    fn wake(self: Arc<Self>) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

/// A registered stream that has never been readable. Once a byte written
/// to its peer shows as readiness, the driver has dispatched every event
/// the kernel queued before that write.
struct Marker {
    fd: AsyncFd<UnixStream>,
    peer: UnixStream,
}

impl Marker {
    fn new() -> Marker {
        let (mine, peer) = UnixStream::pair().expect("socket pair");
        mine.set_nonblocking(true).expect("non-blocking");
        // SAFETY: broken on purpose: in rt's reactor a stale descriptor
        // misroutes events but never touches memory, which this test checks.
        let fd =
            unsafe { AsyncFd::register_with_interest(mine, Interest::READABLE) }.expect("register");
        Marker { fd, peer }
    }

    /// Writes to the peer and waits until the driver reports it.
    async fn fire(&self) {
        (&self.peer).write_all(b"m").expect("write to the marker");
        let guard = bounded("the marker", self.fd.readable()).await.unwrap();
        assert!(guard.ready().is_readable());
    }
}

/// A datagram socket whose `AsyncFd` (over the raw descriptor) was
/// dropped after the socket itself, while a duplicate keeps the open file
/// in epoll. Returns the duplicate and the peer that can make it readable.
fn dropped_behind_a_duplicate() -> (UnixDatagram, UnixDatagram) {
    let (socket, peer) = UnixDatagram::pair().expect("socket pair");
    socket.set_nonblocking(true).expect("non-blocking");
    let duplicate = socket.try_clone().expect("duplicate");
    // SAFETY: broken on purpose: in rt's reactor a stale descriptor
    // misroutes events but never touches memory, which this test checks.
    let fd = unsafe { AsyncFd::register(socket.as_raw_fd()) }.expect("register");
    drop(socket);
    // Deregistering a closed descriptor fails; the entry stays.
    drop(fd);
    (duplicate, peer)
}

/// A datagram socket taken out of its `AsyncFd` with `get_mut`, after
/// which the `AsyncFd` dropped (deregistering the replacement it never
/// registered). Returns the socket, still in epoll, and its peer.
fn swapped_out_with_get_mut() -> (UnixDatagram, UnixDatagram) {
    let (socket, peer) = UnixDatagram::pair().expect("socket pair");
    socket.set_nonblocking(true).expect("non-blocking");
    let (replacement, _) = UnixDatagram::pair().expect("socket pair");
    // SAFETY: broken on purpose: in rt's reactor a stale descriptor
    // misroutes events but never touches memory, which this test checks.
    let mut fd = unsafe { AsyncFd::register(socket) }.expect("register");
    let socket = std::mem::replace(fd.get_mut(), replacement);
    drop(fd);
    (socket, peer)
}

/// Leaves a stale entry with `leave`, then checks that its event wakes
/// nothing and marks nothing ready.
async fn stale_event_reaches_nobody(leave: fn() -> (UnixDatagram, UnixDatagram)) {
    // Registered first, so that none of them takes over what is released.
    let markers = [Marker::new(), Marker::new(), Marker::new()];
    let [first, second, last] = &markers;
    let (stale, peer) = leave();
    // The second marker is fetched by a turn that began after the first
    // one ended, so after the release above.
    first.fire().await;
    second.fire().await;

    // A fresh registration, taking over what the stale one released.
    let (fresh, _fresh_peer) = UnixStream::pair().expect("socket pair");
    fresh.set_nonblocking(true).expect("non-blocking");
    // SAFETY: broken on purpose: in rt's reactor a stale descriptor
    // misroutes events but never touches memory, which this test checks.
    let fresh =
        unsafe { AsyncFd::register_with_interest(fresh, Interest::READABLE) }.expect("register");
    let count = Arc::new(Count(AtomicUsize::new(0)));
    let waker = Waker::from(count.clone());
    let cx = &mut Context::from_waker(&waker);
    assert!(fresh.poll_read_ready(cx).is_pending());

    peer.send(b"stale").expect("send to the stale socket");
    last.fire().await;

    assert_eq!(
        count.0.load(Ordering::SeqCst),
        0,
        "the stale event woke a fresh registration"
    );
    assert!(
        matches!(fresh.poll_read_ready(cx), Poll::Pending),
        "the stale event made a fresh registration readable"
    );
    // The stale file is readable indeed: the event was real.
    let mut buf = [0; 8];
    assert_eq!(stale.recv(&mut buf).expect("the datagram arrived"), 5);
}

#[test]
fn duplicate_fd_event_after_drop_io_time_runtime() {
    io_time_runtime().block_on(stale_event_reaches_nobody(dropped_behind_a_duplicate));
}

#[test]
fn duplicate_fd_event_after_drop_io_time_runtime_multi_thread() {
    io_time_runtime_multi_thread().block_on(stale_event_reaches_nobody(dropped_behind_a_duplicate));
}

#[test]
fn swapped_fd_event_after_drop_io_time_runtime() {
    io_time_runtime().block_on(stale_event_reaches_nobody(swapped_out_with_get_mut));
}

#[test]
fn swapped_fd_event_after_drop_io_time_runtime_multi_thread() {
    io_time_runtime_multi_thread().block_on(stale_event_reaches_nobody(swapped_out_with_get_mut));
}
