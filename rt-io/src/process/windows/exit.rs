//! `ChildProcess`: the running process behind a
//! [`Child`](crate::process::Child), and how its exit is awaited.
//!
//! The first wait registers the process handle with the system's wait
//! thread pool (`RegisterWaitForSingleObject`, run once): when the process
//! ends, a pool thread marks the shared [`Exited`] and wakes the waiting
//! task. No thread of rt's blocks on the child. The registration is
//! cancelled, waiting for a callback in progress, before the process
//! handle is closed.

use rt_core::loom::sync::atomic::{AtomicBool, Ordering};
use rt_core::loom::sync::Arc;
use rt_core::util::AtomicWaker;
use std::ffi::c_void;
use std::io;
use std::os::windows::io::AsRawHandle;
use std::process::{Child as StdChild, ExitStatus};
use std::task::{Context, Poll};
use windows_sys::Win32::Foundation::{HANDLE, INVALID_HANDLE_VALUE};
use windows_sys::Win32::System::Threading::{
    RegisterWaitForSingleObject, UnregisterWaitEx, INFINITE, WT_EXECUTEINWAITTHREAD,
    WT_EXECUTEONLYONCE,
};

/// What the wait callback and the waiting task share.
#[derive(Debug)]
struct Exited {
    done: AtomicBool,
    waker: AtomicWaker,
}

/// A registered wait on the process handle; unregistered on drop.
#[derive(Debug)]
struct Registration {
    wait: HANDLE,
    exited: Arc<Exited>,
    /// The reference the callback holds, released once the wait is
    /// unregistered.
    context: *const Exited,
}

// SAFETY: the wait handle and the callback's reference are only used to
// unregister, which any thread may do; `Exited` is `Sync`.
unsafe impl Send for Registration {}
// SAFETY: as above; `&Registration` gives access to nothing but `exited`.
unsafe impl Sync for Registration {}

impl Registration {
    fn new(child: &StdChild) -> io::Result<Registration> {
        let exited = Arc::new(Exited {
            done: AtomicBool::new(false),
            waker: AtomicWaker::new(),
        });
        let context = Arc::into_raw(exited.clone());
        let mut wait: HANDLE = std::ptr::null_mut();
        // SAFETY: the process handle is open while `child` lives, and the
        // registration is dropped (unregistered) before `child` is; the
        // context pointer stays valid until `Drop` releases it after the
        // wait is unregistered.
        let ok = unsafe {
            RegisterWaitForSingleObject(
                &mut wait,
                child.as_raw_handle() as HANDLE,
                Some(on_exit),
                context.cast::<c_void>(),
                INFINITE,
                WT_EXECUTEINWAITTHREAD | WT_EXECUTEONLYONCE,
            )
        };
        if ok == 0 {
            // SAFETY: the callback was never registered; this is the
            // reference `into_raw` made.
            drop(unsafe { Arc::from_raw(context) });
            return Err(io::Error::last_os_error());
        }
        Ok(Registration {
            wait,
            exited,
            context,
        })
    }
}

impl Drop for Registration {
    fn drop(&mut self) {
        // SAFETY: `wait` is a registered wait; INVALID_HANDLE_VALUE makes
        // the call return only once a running callback has finished, so
        // the callback no longer uses `context` afterwards.
        unsafe { UnregisterWaitEx(self.wait, INVALID_HANDLE_VALUE) };
        // SAFETY: the reference handed to the callback at registration,
        // released once.
        drop(unsafe { Arc::from_raw(self.context) });
    }
}

/// The wait callback: the process ended.
unsafe extern "system" fn on_exit(context: *mut c_void, _timed_out: bool) {
    // SAFETY: `context` is the `Exited` the registration keeps alive until
    // the wait is unregistered, which waits for this call to return.
    let exited = unsafe { &*context.cast::<Exited>() };
    exited.done.store(true, Ordering::Release);
    exited.waker.wake();
}

/// A spawned process until its exit status is collected.
#[derive(Debug)]
pub(crate) struct ChildProcess {
    /// Declared before `child`: the wait is unregistered before the
    /// process handle closes.
    registration: Option<Registration>,
    child: StdChild,
    status: Option<ExitStatus>,
    kill_on_drop: bool,
}

impl ChildProcess {
    /// Takes over `child`, whose standard stream handles were already
    /// taken out.
    pub(crate) fn new(child: StdChild, kill_on_drop: bool) -> ChildProcess {
        ChildProcess {
            registration: None,
            child,
            status: None,
            kill_on_drop,
        }
    }

    /// The OS process id while the exit was not collected.
    pub(crate) fn id(&self) -> Option<u32> {
        self.status.is_none().then(|| self.child.id())
    }

    /// Terminates the process unless its exit was already collected.
    pub(crate) fn start_kill(&mut self) -> io::Result<()> {
        match self.status {
            None => self.child.kill(),
            Some(_) => Ok(()),
        }
    }

    /// Collects the exit status if the process has exited, without waiting.
    pub(crate) fn try_wait(&mut self) -> io::Result<Option<ExitStatus>> {
        if self.status.is_none() {
            self.status = self.child.try_wait()?;
            if self.status.is_some() {
                self.registration = None;
            }
        }
        Ok(self.status)
    }

    /// `Ready` with the exit status once the process has exited; otherwise
    /// `cx` is woken when it does.
    pub(crate) fn poll_wait(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<ExitStatus>> {
        if let Some(status) = self.try_wait()? {
            return Poll::Ready(Ok(status));
        }
        if self.registration.is_none() {
            self.registration = Some(Registration::new(&self.child)?);
        }
        let exited = &self.registration.as_ref().expect("registered above").exited;
        exited.waker.register_by_ref(cx.waker());
        if !exited.done.load(Ordering::Acquire) {
            return Poll::Pending;
        }
        match self.try_wait()? {
            Some(status) => Poll::Ready(Ok(status)),
            // Signalled means exited: the status is there to read.
            None => Poll::Ready(Err(io::Error::other(
                "the process handle was signalled but the process has no exit status",
            ))),
        }
    }
}

impl Drop for ChildProcess {
    fn drop(&mut self) {
        if self.kill_on_drop && self.status.is_none() {
            // Fails only if the process is gone already.
            let _ = self.child.kill();
        }
    }
}
