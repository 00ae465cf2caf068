//! Cooperative scheduling: a per-poll budget that makes a busy task yield.
//!
//! A task that always finds its resources ready (a channel that is never
//! empty, a socket that always has data) would otherwise never return to the
//! scheduler and starve its neighbours. Each task poll starts with a budget
//! of [`DEFAULT_BUDGET`] units; every resource operation spends one through
//! [`poll_proceed`]; once the budget is spent, resources answer `Pending`
//! (after waking the task), so the task yields and is polled again later.
//!
//! Outside a runtime, or inside [`unconstrained`], there is no budget and
//! nothing is ever forced to yield.

use pin_project_lite::pin_project;
use std::cell::Cell;
use std::future::Future;
use std::pin::Pin;
use std::task::{ready, Context, Poll};

/// Units a task may spend in one poll unless the runtime is configured
/// otherwise.
pub const DEFAULT_BUDGET: u32 = 128;

crate::loom::thread_local! {
    /// `None`: unconstrained. `Some(n)`: `n` units left in this poll.
    static BUDGET: Cell<Option<u32>> = const { Cell::new(None) };
    /// How many times a resource refused to proceed on this thread.
    static FORCED_YIELDS: Cell<u64> = const { Cell::new(0) };
}

/// Runs `f` (one task poll) with a fresh budget of `units`, restoring the
/// enclosing budget afterwards, even if `f` panics.
pub fn with_budget<R>(units: u32, f: impl FnOnce() -> R) -> R {
    with_budget_value(Some(units), f)
}

/// Runs `f` with no budget (blocking closures, `block_in_place`).
#[cfg(feature = "rt")]
pub(crate) fn with_unconstrained<R>(f: impl FnOnce() -> R) -> R {
    with_budget_value(None, f)
}

/// Runs `f` with `value` as the budget (`None`: unconstrained), as the
/// schedulers do for a runtime whose budget may be turned off.
pub(crate) fn with_budget_value<R>(value: Option<u32>, f: impl FnOnce() -> R) -> R {
    struct Restore(Option<u32>);
    impl Drop for Restore {
        fn drop(&mut self) {
            BUDGET.with(|b| b.set(self.0));
        }
    }
    let _restore = Restore(BUDGET.with(|b| b.replace(value)));
    f()
}

/// Whether the current task may still make progress without yielding.
///
/// Always `true` outside a runtime and inside [`unconstrained`].
pub fn has_budget_remaining() -> bool {
    // A dump's trace poll runs with a spent budget of its own; to the
    // task, the budget is what it was.
    BUDGET.with(|b| b.get() != Some(0)) || super::trace::is_tracing()
}

/// The units left in the current task's budget: `None` outside a runtime
/// and inside [`unconstrained`].
///
/// Two readings around a few polls tell whether the resources polled in
/// between spent any budget: `io::copy` charges its loop only for the
/// rounds in which neither its reader nor its writer did, so that a copy
/// between in-memory streams still yields while a copy between sockets,
/// which charge every read and write, pays no extra unit per round. tokio
/// has no counterpart; code that must build on both should not call it.
///
/// ```
/// use rt_core::task::coop;
///
/// assert_eq!(coop::remaining_budget(), None);
/// coop::with_budget(8, || assert_eq!(coop::remaining_budget(), Some(8)));
/// ```
#[inline]
pub fn remaining_budget() -> Option<u32> {
    BUDGET.with(|b| b.get())
}

/// Total number of times a resource refused to proceed on this thread
/// because the budget was spent (a metrics source for the schedulers).
pub fn forced_yields() -> u64 {
    FORCED_YIELDS.with(|c| c.get())
}

/// Spends one unit of the current task's budget, or, if none is left, wakes
/// the task and returns `Pending` so that it yields.
///
/// Resources call this before doing work. If the operation then turns out
/// not to be ready, dropping the returned guard gives the unit back; call
/// [`RestoreOnPending::made_progress`] once the operation did complete.
#[inline]
pub fn poll_proceed(cx: &mut Context<'_>) -> Poll<RestoreOnPending> {
    BUDGET.with(|b| match b.get() {
        None => Poll::Ready(RestoreOnPending(Cell::new(None))),
        Some(0) => {
            spent(cx);
            Poll::Pending
        }
        Some(n) => {
            b.set(Some(n - 1));
            Poll::Ready(RestoreOnPending(Cell::new(Some(n))))
        }
    })
}

/// A resource found the budget spent: the task is made to yield (woken, so
/// that it is polled again later). A task dump's trace poll runs with a
/// spent budget, so that this is also where a resource that spends budget
/// is recorded as the place the task waits (see `trace.rs`): the poll path
/// pays nothing for it while no dump runs. Out of line: rare.
#[cold]
#[inline(never)]
fn spent(cx: &Context<'_>) {
    if super::trace::leaf_at_spent_budget() {
        return;
    }
    FORCED_YIELDS.with(|c| c.set(c.get() + 1));
    cx.waker().wake_by_ref();
}

/// Returns `Pending` (after waking the task) if the budget is spent, without
/// spending any. `select!` uses this before polling its branches.
pub fn poll_budget_available(cx: &mut Context<'_>) -> Poll<()> {
    if has_budget_remaining() {
        Poll::Ready(())
    } else {
        spent(cx);
        Poll::Pending
    }
}

/// Gives a spent budget unit back unless the operation made progress.
#[derive(Debug)]
#[must_use = "dropping the guard at once gives the unit back"]
pub struct RestoreOnPending(Cell<Option<u32>>);

impl RestoreOnPending {
    /// Keeps the unit spent: the operation completed. Takes `&self`, as
    /// tokio's does, so that a guard held by shared reference can be used.
    pub fn made_progress(&self) {
        self.0.set(None);
    }
}

impl Drop for RestoreOnPending {
    #[inline]
    fn drop(&mut self) {
        if let Some(previous) = self.0.get() {
            BUDGET.with(|b| {
                if b.get().is_some() {
                    b.set(Some(previous));
                }
            });
        }
    }
}

/// Spends one unit of budget, yielding first if none is left.
///
/// Useful in loops that do work without touching any rt resource, so that
/// they still yield now and then.
///
/// ```
/// # rt_core::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// for _ in 0..1000 {
///     rt_core::task::coop::consume_budget().await;
/// }
/// # });
/// ```
pub async fn consume_budget() {
    let mut spent = false;
    std::future::poll_fn(move |cx| {
        if spent {
            return Poll::Ready(());
        }
        let guard = ready!(poll_proceed(cx));
        guard.made_progress();
        spent = true;
        Poll::Ready(())
    })
    .await
}

/// Runs `inner` with no budget: its resources never force it to yield.
///
/// Use with care: an unconstrained future that is always ready keeps its
/// worker to itself.
pub fn unconstrained<F: Future>(inner: F) -> Unconstrained<F> {
    Unconstrained { inner }
}

pin_project! {
    /// The future returned by [`unconstrained`].
    #[derive(Debug)]
    #[must_use = "futures do nothing unless polled"]
    pub struct Unconstrained<F> {
        #[pin]
        inner: F,
    }
}

impl<F: Future> Future for Unconstrained<F> {
    type Output = F::Output;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<F::Output> {
        let inner = self.project().inner;
        with_budget_value(None, || inner.poll(cx))
    }
}

/// Makes `future` spend the task's coop budget like rt's own resources do.
///
/// Each poll of the returned [`Coop`] first spends one unit through
/// [`poll_proceed`] (yielding at once when the budget is spent), then polls
/// `future`; the unit stays spent only if `future` completed. Wrap futures
/// of other libraries (a `futures` channel, say) with it so that a task
/// looping over them still yields now and then.
///
/// ```
/// # rt_core::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let value = rt_core::task::coop::cooperative(async { 7 }).await;
/// assert_eq!(value, 7);
/// # });
/// ```
#[inline]
pub fn cooperative<F: Future>(future: F) -> Coop<F> {
    Coop { inner: future }
}

pin_project! {
    /// The future returned by [`cooperative`].
    #[derive(Debug)]
    #[must_use = "futures do nothing unless polled"]
    pub struct Coop<F: Future> {
        #[pin]
        inner: F,
    }
}

impl<F: Future> Future for Coop<F> {
    type Output = F::Output;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<F::Output> {
        let guard = ready!(poll_proceed(cx));
        let output = ready!(self.project().inner.poll(cx));
        guard.made_progress();
        Poll::Ready(output)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::task::Waker;

    fn noop_cx() -> Context<'static> {
        Context::from_waker(Waker::noop())
    }

    #[test]
    fn unlimited_outside_a_runtime() {
        let mut cx = noop_cx();
        for _ in 0..10_000 {
            assert!(poll_proceed(&mut cx).is_ready());
        }
        assert!(has_budget_remaining());
    }

    #[test]
    fn budget_runs_out_and_is_restored_on_pending() {
        let mut cx = noop_cx();
        with_budget(2, || {
            let a = match poll_proceed(&mut cx) {
                Poll::Ready(g) => g,
                Poll::Pending => panic!("budget should allow"),
            };
            a.made_progress();
            let b = poll_proceed(&mut cx);
            drop(b); // not made_progress: unit returns
            assert!(has_budget_remaining());
            let c = match poll_proceed(&mut cx) {
                Poll::Ready(g) => g,
                Poll::Pending => panic!("one unit left"),
            };
            c.made_progress();
            assert!(!has_budget_remaining());
            let before = forced_yields();
            assert!(poll_proceed(&mut cx).is_pending());
            assert!(poll_budget_available(&mut cx).is_pending());
            assert_eq!(forced_yields(), before + 2);
        });
        assert!(has_budget_remaining());
    }

    #[test]
    fn unconstrained_lifts_the_budget() {
        let mut cx = noop_cx();
        with_budget(0, || {
            assert!(!has_budget_remaining());
            let mut fut = std::pin::pin!(unconstrained(async { has_budget_remaining() }));
            assert_eq!(fut.as_mut().poll(&mut cx), Poll::Ready(true));
            assert!(!has_budget_remaining());
        });
    }

    #[test]
    fn cooperative_yields_when_the_budget_is_spent() {
        let mut cx = noop_cx();
        with_budget(1, || {
            let mut first = std::pin::pin!(cooperative(async { 1 }));
            assert_eq!(first.as_mut().poll(&mut cx), Poll::Ready(1));
            assert!(!has_budget_remaining());
            let mut second = std::pin::pin!(cooperative(async { 2 }));
            assert!(second.as_mut().poll(&mut cx).is_pending());
        });
        with_budget(1, || {
            let mut pending = std::pin::pin!(cooperative(std::future::pending::<()>()));
            assert!(pending.as_mut().poll(&mut cx).is_pending());
            assert!(has_budget_remaining(), "a pending poll gives the unit back");
        });
    }
}
