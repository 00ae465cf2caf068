//! `JoinError`: why a task produced no output.

use super::Id;
use crate::loom::sync::{Mutex, MutexGuard};
use std::any::Any;
use std::fmt;
use std::io;
use std::mem::ManuallyDrop;

/// A task failed to run to completion: it was cancelled, or it panicked.
pub struct JoinError {
    repr: Repr,
    id: Id,
}

enum Repr {
    Cancelled,
    Panic(Payload),
}

/// A caught panic's payload.
///
/// The payload is only ever taken out by value, so the lock is never
/// contended; it exists to make the error `Sync` without requiring the
/// payload to be. Boxed once more so that the error is two words: it shares
/// the task cell with the future, and panics are rare. For the same reason
/// its destructor is out of line: inline, it would make the drop of every
/// task's stage (run a few times per task) too large to inline.
struct Payload {
    inner: ManuallyDrop<Box<Mutex<Box<dyn Any + Send + 'static>>>>,
}

impl Payload {
    fn new(payload: Box<dyn Any + Send + 'static>) -> Payload {
        Payload {
            inner: ManuallyDrop::new(Box::new(Mutex::new(payload))),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Box<dyn Any + Send + 'static>> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn into_inner(self) -> Box<dyn Any + Send + 'static> {
        let mut this = ManuallyDrop::new(self);
        // SAFETY: `this` is never dropped (ManuallyDrop) nor used again, so
        // the box is taken exactly once.
        let inner = unsafe { ManuallyDrop::take(&mut this.inner) };
        inner.into_inner().unwrap_or_else(|e| e.into_inner())
    }
}

impl Drop for Payload {
    #[cold]
    #[inline(never)]
    fn drop(&mut self) {
        // SAFETY: `drop` runs once and nothing reads `inner` after it;
        // `into_inner`, the only other taker, skips this destructor.
        unsafe { ManuallyDrop::drop(&mut self.inner) }
    }
}

impl JoinError {
    pub(crate) fn cancelled(id: Id) -> JoinError {
        JoinError {
            repr: Repr::Cancelled,
            id,
        }
    }

    pub(crate) fn panic(id: Id, payload: Box<dyn Any + Send + 'static>) -> JoinError {
        JoinError {
            repr: Repr::Panic(Payload::new(payload)),
            id,
        }
    }

    /// Whether the task was cancelled (aborted, or dropped at shutdown).
    pub fn is_cancelled(&self) -> bool {
        matches!(self.repr, Repr::Cancelled)
    }

    /// Whether the task panicked.
    pub fn is_panic(&self) -> bool {
        matches!(self.repr, Repr::Panic(_))
    }

    /// The panic payload.
    ///
    /// # Panics
    ///
    /// If the task did not panic; see [`try_into_panic`](Self::try_into_panic).
    ///
    /// ```
    /// use std::panic;
    ///
    /// let rt = rt_core::runtime::Builder::new_current_thread().build().unwrap();
    /// rt.block_on(async {
    ///     let err = rt_core::spawn(async { panic!("boom") }).await.unwrap_err();
    ///     if err.is_panic() {
    ///         let payload = err.into_panic();
    ///         assert_eq!(payload.downcast_ref::<&str>(), Some(&"boom"));
    ///     }
    /// });
    /// ```
    #[track_caller]
    pub fn into_panic(self) -> Box<dyn Any + Send + 'static> {
        self.try_into_panic()
            .expect("`JoinError` reason is not a panic.")
    }

    /// The panic payload, or the error back if the task did not panic.
    pub fn try_into_panic(self) -> Result<Box<dyn Any + Send + 'static>, JoinError> {
        match self.repr {
            Repr::Panic(payload) => Ok(payload.into_inner()),
            Repr::Cancelled => Err(self),
        }
    }

    /// The id of the task that failed.
    pub fn id(&self) -> Id {
        self.id
    }

    fn panic_message(&self) -> Option<String> {
        let Repr::Panic(payload) = &self.repr else {
            return None;
        };
        let payload = payload.lock();
        if let Some(s) = payload.downcast_ref::<&'static str>() {
            Some((*s).to_string())
        } else {
            payload.downcast_ref::<String>().cloned()
        }
    }
}

impl fmt::Display for JoinError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.repr {
            Repr::Cancelled => write!(f, "task {} was cancelled", self.id),
            Repr::Panic(_) => match self.panic_message() {
                Some(message) => write!(f, "task {} panicked with message {:?}", self.id, message),
                None => write!(f, "task {} panicked", self.id),
            },
        }
    }
}

impl fmt::Debug for JoinError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.repr {
            Repr::Cancelled => write!(f, "JoinError::Cancelled({:?})", self.id),
            Repr::Panic(_) => match self.panic_message() {
                Some(message) => write!(f, "JoinError::Panic({:?}, {:?}, ...)", self.id, message),
                None => write!(f, "JoinError::Panic({:?}, ...)", self.id),
            },
        }
    }
}

impl std::error::Error for JoinError {}

impl From<JoinError> for io::Error {
    fn from(error: JoinError) -> io::Error {
        io::Error::other(match error.repr {
            Repr::Cancelled => "task was cancelled",
            Repr::Panic(_) => "task panicked",
        })
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    fn id() -> Id {
        Id::next()
    }

    #[test]
    fn display_texts() {
        let i = id();
        assert_eq!(
            JoinError::cancelled(i).to_string(),
            format!("task {i} was cancelled")
        );
        let p = JoinError::panic(i, Box::new("boom"));
        assert_eq!(
            p.to_string(),
            format!("task {i} panicked with message \"boom\"")
        );
        let p = JoinError::panic(i, Box::new(String::from("owned")));
        assert_eq!(
            p.to_string(),
            format!("task {i} panicked with message \"owned\"")
        );
        let p = JoinError::panic(i, Box::new(17u32));
        assert_eq!(p.to_string(), format!("task {i} panicked"));
    }

    #[test]
    fn kinds_and_payload() {
        let i = id();
        let c = JoinError::cancelled(i);
        assert!(c.is_cancelled() && !c.is_panic());
        assert_eq!(c.id(), i);
        let c = c.try_into_panic().unwrap_err();
        assert!(c.is_cancelled());
        let p = JoinError::panic(i, Box::new(5u8));
        assert!(p.is_panic());
        assert_eq!(*p.into_panic().downcast::<u8>().unwrap(), 5);
    }

    #[test]
    fn dropping_a_panic_error_drops_its_payload() {
        let payload = std::sync::Arc::new(());
        let error = JoinError::panic(id(), Box::new(payload.clone()));
        assert_eq!(std::sync::Arc::strong_count(&payload), 2);
        drop(error);
        assert_eq!(std::sync::Arc::strong_count(&payload), 1);
    }

    #[test]
    fn converts_to_io_error() {
        let e: io::Error = JoinError::cancelled(id()).into();
        assert_eq!(e.to_string(), "task was cancelled");
    }

    #[test]
    fn is_send_and_sync() {
        fn check<T: Send + Sync>() {}
        check::<JoinError>();
    }
}
