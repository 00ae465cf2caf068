//! A duplex end must not drop a waker it replaces while it holds the
//! pipe's lock: the waker may own the peer end, whose drop locks the same
//! pipe to close it. Here the first poll parks a waker that owns the peer;
//! the second poll, with another waker, replaces (and so drops) it, which
//! closes the pipe; the third poll sees the close.
//!
//! A regression deadlocks inside `poll`, where no async timeout reaches, so
//! each check runs on a thread of its own and the test waits for it for a
//! bounded time.

use rt_io::io::{duplex, AsyncReadExt, AsyncWriteExt, DuplexStream};
use std::future::Future;
use std::io::{ErrorKind, IoSlice};
use std::pin::pin;
use std::sync::{mpsc, Arc};
use std::task::{Context, Wake, Waker};
use std::time::Duration;

/// Far more than three polls of an in-memory pipe take.
const BOUND: Duration = Duration::from_secs(10);

/// A waker that does nothing but keep the peer end alive.
struct OwnsPeer(#[allow(dead_code)] DuplexStream);

impl Wake for OwnsPeer {
    fn wake(self: Arc<Self>) {}
}

/// A waker that does nothing.
struct Noop;

impl Wake for Noop {
    fn wake(self: Arc<Self>) {}
}

/// Polls `fut` first with a waker owning `peer`, then twice with another
/// waker: pending, pending (the replaced waker closed the pipe), ready.
/// Fails if that takes longer than [`BOUND`] (the poll deadlocked).
fn replace_a_waker_owning_the_peer<F>(peer: DuplexStream, fut: F)
where
    F: Future<Output = ()> + Send + 'static,
{
    let (done, finished) = mpsc::channel();
    std::thread::spawn(move || {
        let mut fut = pin!(fut);
        let owner = Waker::from(Arc::new(OwnsPeer(peer)));
        assert!(fut
            .as_mut()
            .poll(&mut Context::from_waker(&owner))
            .is_pending());
        drop(owner);
        let noop = Waker::from(Arc::new(Noop));
        let cx = &mut Context::from_waker(&noop);
        // The replaced waker drops the peer only after this poll checked
        // for a close, so it is still pending, and ready on the next.
        assert!(fut.as_mut().poll(cx).is_pending());
        assert!(fut.as_mut().poll(cx).is_ready());
        done.send(()).unwrap();
    });
    match finished.recv_timeout(BOUND) {
        Ok(()) => {}
        Err(mpsc::RecvTimeoutError::Timeout) => {
            panic!("dropping a replaced waker deadlocked the pipe")
        }
        Err(mpsc::RecvTimeoutError::Disconnected) => panic!("the check failed"),
    }
}

#[test]
fn a_read_drops_the_waker_it_replaced_outside_the_lock() {
    let (mut reader, peer) = duplex(1);
    replace_a_waker_owning_the_peer(peer, async move {
        assert_eq!(reader.read(&mut [0; 1]).await.unwrap(), 0);
    });
}

#[test]
fn a_write_drops_the_waker_it_replaced_outside_the_lock() {
    let (mut writer, peer) = duplex(1);
    replace_a_waker_owning_the_peer(peer, async move {
        let err = writer.write_all(b"ab").await.unwrap_err();
        assert_eq!(err.kind(), ErrorKind::BrokenPipe);
    });
}

#[test]
fn a_vectored_write_drops_the_waker_it_replaced_outside_the_lock() {
    let (mut writer, peer) = duplex(1);
    replace_a_waker_owning_the_peer(peer, async move {
        assert_eq!(writer.write(b"a").await.unwrap(), 1);
        let err = writer
            .write_vectored(&[IoSlice::new(b"b")])
            .await
            .unwrap_err();
        assert_eq!(err.kind(), ErrorKind::BrokenPipe);
    });
}
