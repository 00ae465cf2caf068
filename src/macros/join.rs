//! `join!` and `try_join!`: wait on several futures concurrently inside the
//! current task.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

/// Waits on several futures concurrently and returns a tuple of all their
/// outputs, in the order the futures were written.
///
/// The futures run inside the current task, interleaved, not in parallel:
/// to run them on other worker threads, spawn them instead. Each future is
/// evaluated once and pinned in place (nothing is boxed or allocated); each
/// time the `join!` is polled it polls every future that has not finished
/// yet, and drops a future as soon as it has produced its output. The first
/// future polled rotates from one poll to the next so that none is always
/// served first; with `biased;` before the futures they are always polled in
/// the order written.
///
/// `join!` can only be used inside an `async` function or block. With no
/// futures it returns `()`.
///
/// ```
/// # fn block_on<F: std::future::Future>(future: F) -> F::Output {
/// #     let mut future = std::pin::pin!(future);
/// #     let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
/// #     loop {
/// #         if let std::task::Poll::Ready(out) = future.as_mut().poll(&mut cx) {
/// #             return out;
/// #         }
/// #     }
/// # }
/// async fn length(text: &str) -> usize {
///     text.len()
/// }
///
/// block_on(async {
///     let (a, b, c) = rt::join!(length("one"), length("three"), async { 'x' });
///     assert_eq!((a, b, c), (3, 5, 'x'));
///
///     let (first, second) = rt::join!(biased; async { 1 }, async { 2 });
///     assert_eq!(first + second, 3);
/// });
/// ```
#[macro_export]
macro_rules! join {
    ($($input:tt)*) => {
        $crate::macros::support::join_inner! { $crate; $($input)* }
    };
}

/// Waits on several futures that return `Result`s concurrently, and returns
/// either `Ok` with a tuple of all their values or the first `Err`.
///
/// It runs like [`join!`](crate::join!), except that as soon as one future
/// returns an `Err`, the `try_join!` returns that error and drops the
/// futures that have not finished. All the futures must have the same error
/// type. `biased;` is accepted as for `join!`.
///
/// ```
/// # fn block_on<F: std::future::Future>(future: F) -> F::Output {
/// #     let mut future = std::pin::pin!(future);
/// #     let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
/// #     loop {
/// #         if let std::task::Poll::Ready(out) = future.as_mut().poll(&mut cx) {
/// #             return out;
/// #         }
/// #     }
/// # }
/// async fn parse(text: &str) -> Result<u32, std::num::ParseIntError> {
///     text.parse()
/// }
///
/// block_on(async {
///     let sum = rt::try_join!(parse("1"), parse("2")).map(|(a, b)| a + b);
///     assert_eq!(sum, Ok(3));
///
///     let failed = rt::try_join!(parse("1"), parse("two"));
///     assert!(failed.is_err());
/// });
/// ```
#[macro_export]
macro_rules! try_join {
    ($($input:tt)*) => {
        $crate::macros::support::try_join_inner! { $crate; $($input)* }
    };
}

pin_project_lite::pin_project! {
    /// One future of a `join!`/`try_join!` and, once it finished, its
    /// output, in the same place: a joined future costs its own size (or
    /// its output's) and nothing more. Used by the expansion only.
    #[doc(hidden)]
    #[project = MaybeDoneProj]
    #[project_replace = MaybeDoneTaken]
    pub enum MaybeDone<F: Future> {
        /// Still running.
        Running { #[pin] future: F },
        /// Finished; the future is already dropped.
        Done { output: F::Output },
        /// The output was handed out.
        Taken,
    }
}

impl<F: Future> MaybeDone<F> {
    /// Wraps a future that has not run yet.
    pub fn new(future: F) -> Self {
        MaybeDone::Running { future }
    }

    /// Polls the future if it still runs; `true` once it has finished. A
    /// finished future is dropped at once.
    pub fn poll_done(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> bool {
        let output = match self.as_mut().project() {
            MaybeDoneProj::Running { future } => match future.poll(cx) {
                Poll::Ready(output) => output,
                Poll::Pending => return false,
            },
            MaybeDoneProj::Done { .. } | MaybeDoneProj::Taken => return true,
        };
        self.set(MaybeDone::Done { output });
        true
    }

    /// The output of a finished future that was not handed out yet (for
    /// `try_join!`, which looks for an error).
    pub fn output_mut(self: Pin<&mut Self>) -> Option<&mut F::Output> {
        match self.project() {
            MaybeDoneProj::Done { output } => Some(output),
            MaybeDoneProj::Running { .. } | MaybeDoneProj::Taken => None,
        }
    }

    /// Hands out the output of a finished future, once.
    pub fn take_output(self: Pin<&mut Self>) -> Option<F::Output> {
        if !matches!(*self, MaybeDone::Done { .. }) {
            return None;
        }
        match self.project_replace(MaybeDone::Taken) {
            MaybeDoneTaken::Done { output } => Some(output),
            MaybeDoneTaken::Running { .. } | MaybeDoneTaken::Taken => None,
        }
    }
}

pin_project_lite::pin_project! {
    /// Every slot of a `join!`, as a list (`SlotList { head: slot 0, tail:
    /// SlotList { head: slot 1, tail: () } }`) pinned as one value, so the
    /// expansion keeps one pointer to all of them and reaches slot `i` by
    /// safe projections. Used by the expansion only.
    #[doc(hidden)]
    #[project = SlotListProj]
    pub struct SlotList<H, T> {
        #[pin]
        head: H,
        #[pin]
        tail: T,
    }
}

impl<H, T> SlotList<H, T> {
    /// A list of `head` followed by `tail`.
    pub fn new(head: H, tail: T) -> Self {
        SlotList { head, tail }
    }

    /// The pinned first slot.
    pub fn head(self: Pin<&mut Self>) -> Pin<&mut H> {
        self.project().head
    }

    /// The pinned rest of the list.
    pub fn tail(self: Pin<&mut Self>) -> Pin<&mut T> {
        self.project().tail
    }
}
