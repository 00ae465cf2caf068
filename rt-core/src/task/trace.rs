//! Async backtraces: where an idle task is parked, for task dumps.
//!
//! An idle task's future sits at some `.await`, and re-polling it walks the
//! same chain of `poll` calls down to the rt resource it waits on. A dump
//! does exactly that: it claims each idle task as a poll would
//! (`State::transition_to_trace`), sets this thread's trace mode and polls
//! the task through its one poll entry, whose slow path lets the claimant
//! through. Every rt leaf resource (timers, sync primitives, channels, I/O
//! readiness, signals, `JoinSet`) calls [`trace_leaf`] at the top of its
//! `poll`; in trace mode that records the stack (the chain of awaits) and
//! answers `Pending` before the resource does anything, so no waker is
//! replaced, no permit or message taken and no coop budget spent. While no
//! dump runs it costs one relaxed load. The trace poll runs with a spent
//! coop budget, so a resource whose poll begins by spending budget
//! (`JoinHandle`) needs no hook: `coop::poll_proceed`'s out-of-line slow
//! path records it instead, and its poll pays nothing. `yield_now` needs
//! none either: a task waiting there woke itself, so a dump does not trace
//! it.
//!
//! A capture is only the bare return addresses of the stack (the
//! `backtrace` crate's unwinder), unwound only down to the dump's own frame,
//! and keyed by them: ten thousand tasks parked at the same await are one
//! stack. When the dump has polled every idle task, each distinct address
//! is resolved once (`symbols.rs`), and the symbolizer's cache of parsed
//! debug info is freed: nothing of the dump's outlives it but a small,
//! bounded cache of resolved addresses per dumping thread, which spares a
//! later dump of the same stacks from loading the debug info again. std's
//! own `Backtrace` is not used because its symbolizer keeps the debug info
//! it parses (tens of MB of heap in release) for the life of the process,
//! with no way to free it.

// Without the `rt` feature no dump exists to set a collector: only the
// hook and the public types are used then.
#![cfg_attr(not(feature = "rt"), allow(dead_code))]

use std::cell::Cell;
use std::fmt;
use std::ptr;
use std::sync::Arc;
use std::task::Poll;

#[cfg(feature = "rt")]
mod collector;
#[cfg(feature = "rt")]
mod symbols;

#[cfg(feature = "rt")]
pub(crate) use collector::Collector;

/// Without the `rt` feature no dump exists, so no collector does either.
#[cfg(not(feature = "rt"))]
pub(crate) enum Collector {}

#[cfg(not(feature = "rt"))]
impl Collector {
    fn record(&mut self, _from_waker: bool) {
        match *self {}
    }
}

crate::loom::thread_local! {
    /// The dump's collector while this thread trace-polls a task.
    static COLLECTOR: Cell<*mut Collector> = const { Cell::new(ptr::null_mut()) };
    /// The state word of the task this thread claimed for a trace poll.
    static CLAIMED: Cell<*const ()> = const { Cell::new(ptr::null()) };
}

/// The one hook of every rt leaf resource, called at the top of its `poll`:
/// `std::task::ready!(rt_core::task::trace::trace_leaf());`.
///
/// Outside a task dump it returns `Ready(())` and the poll goes on. While a
/// dump trace-polls a task on this thread it records where the task waits
/// (the stack of awaits above this call) and returns `Pending`, so that the
/// resource returns at once, untouched.
#[inline]
pub fn trace_leaf() -> Poll<()> {
    // One relaxed load while no dump runs anywhere: smaller than a
    // thread-local read where the leaf is inlined into a task's poll.
    if !tracing::any() {
        return Poll::Ready(());
    }
    trace_leaf_slow()
}

#[cold]
#[inline(never)]
fn trace_leaf_slow() -> Poll<()> {
    if COLLECTOR.with(|c| c.get().is_null()) {
        Poll::Ready(())
    } else {
        record();
        Poll::Pending
    }
}

/// How many threads are in trace mode, process-wide: the leaves' fast
/// check. A thread counts itself before it sets its own trace mode, so it
/// always sees its own count; another thread that sees a stale count only
/// goes on to read its own (unset) trace mode. Part of no protocol between
/// threads, so a plain atomic, and none at all under loom (whose atomics
/// cannot be statics), where the leaves read the thread-local directly.
mod tracing {
    #[cfg(not(loom))]
    static THREADS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

    /// Whether some thread may be in trace mode.
    #[inline(always)]
    pub(super) fn any() -> bool {
        #[cfg(not(loom))]
        return THREADS.load(std::sync::atomic::Ordering::Relaxed) != 0;
        #[cfg(loom)]
        return true;
    }

    #[cfg_attr(not(feature = "rt"), allow(dead_code))]
    pub(super) fn enter() {
        #[cfg(not(loom))]
        THREADS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }

    #[cfg_attr(not(feature = "rt"), allow(dead_code))]
    pub(super) fn exit() {
        #[cfg(not(loom))]
        THREADS.fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
    }
}

/// Called where a resource found the coop budget spent. A trace poll runs
/// with a spent budget (see `RawTask::trace`), so in trace mode the
/// resource is where the task waits: records it and returns `true`; the
/// resource then returns `Pending` untouched, like a leaf. This is the
/// hook of the resources that spend budget before anything else
/// (`JoinHandle`), at no cost to their poll while no dump runs.
pub(super) fn leaf_at_spent_budget() -> bool {
    if !tracing::any() || COLLECTOR.with(|c| c.get().is_null()) {
        return false;
    }
    record();
    true
}

/// Whether this thread is trace-polling a task for a dump (for resources
/// that need to know beyond [`trace_leaf`]).
pub fn is_tracing() -> bool {
    !COLLECTOR.with(|c| c.get().is_null())
}

#[cold]
#[inline(never)]
fn record() {
    record_into(false);
}

/// Called when a task's waker is cloned, with the clone: in trace mode,
/// that is a future that keeps the waker to return `Pending` on its own
/// (not an rt resource), and where it did so is the innermost frame the
/// trace poll reached; used when the poll reached no rt resource. Takes and
/// returns the clone so that the slow path is a tail call: the waker's
/// `clone` stays a leaf function without a frame of its own.
#[cfg(feature = "rt")]
#[inline]
pub(super) fn waker_cloned(clone: std::task::RawWaker) -> std::task::RawWaker {
    if tracing::any() {
        return record_waker_use(clone);
    }
    clone
}

#[cfg(feature = "rt")]
#[cold]
#[inline(never)]
fn record_waker_use(clone: std::task::RawWaker) -> std::task::RawWaker {
    if !COLLECTOR.with(|c| c.get().is_null()) {
        record_into(true);
    }
    clone
}

fn record_into(from_waker: bool) {
    let collector = COLLECTOR.with(|c| c.get());
    // SAFETY: the pointer is set only by a `TraceMode`, for its life, from
    // a `&mut Collector` that outlives it, and nothing else borrows the
    // collector meanwhile (the trace poll runs on this thread).
    let collector = unsafe { &mut *collector };
    collector.record(from_waker);
}

/// Trace mode on this thread, recording into a dump's collector, while
/// the dump trace-polls the task it claimed. The chain of awaits in a
/// captured stack ends where the task harness calls the future.
#[cfg(feature = "rt")]
pub(super) struct TraceMode {
    collector: *mut Collector,
    claimed: *const (),
}

#[cfg(feature = "rt")]
impl TraceMode {
    /// Enters trace mode for the task whose state word is `claimed` (the
    /// caller holds its `RUNNING` from `transition_to_trace`).
    pub(super) fn enter(collector: &mut Collector, claimed: &super::state::State) -> TraceMode {
        let claimed = (claimed as *const super::state::State).cast();
        tracing::enter();
        TraceMode {
            collector: COLLECTOR.with(|c| c.replace(collector)),
            claimed: CLAIMED.with(|c| c.replace(claimed)),
        }
    }
}

#[cfg(feature = "rt")]
impl Drop for TraceMode {
    fn drop(&mut self) {
        COLLECTOR.with(|c| c.set(self.collector));
        CLAIMED.with(|c| c.set(self.claimed));
        tracing::exit();
    }
}

/// Whether this thread's dump claimed the task whose state word is
/// `state` for a trace poll: then the poll entry finds the task running,
/// and must let the trace poll through instead of taking it for a stale
/// run-queue entry. Asked only on that slow path, and out of line, so that
/// the poll path's CAS loop stays small.
#[cfg(feature = "rt")]
#[cold]
#[inline(never)]
pub(super) fn claimed_for_trace(state: &super::state::State) -> bool {
    let state: *const () = (state as *const super::state::State).cast();
    CLAIMED.with(|c| c.get() == state)
}

/// One await in a [`Trace`]: the async fn, closure or future type polled
/// there, and where, when debug info says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Frame {
    name: String,
    location: Option<(String, u32)>,
}

impl Frame {
    /// The async fn (`path::to::f::{{closure}}`), closure or future type,
    /// demangled, without the hash suffix.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The source file, where debug info allows.
    pub fn file(&self) -> Option<&str> {
        self.location.as_ref().map(|(file, _)| file.as_str())
    }

    /// The source line, where debug info allows.
    pub fn line(&self) -> Option<u32> {
        self.location.as_ref().map(|&(_, line)| line)
    }
}

impl fmt::Display for Frame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)?;
        if let Some((file, line)) = &self.location {
            write!(f, " at {file}:{line}")?;
        }
        Ok(())
    }
}

/// Where an idle task waits: for each rt resource its last poll reached,
/// the chain of awaits from that resource (innermost) up to the task's
/// future. Taken by [`Handle::dump`](crate::runtime::Handle::dump) and
/// [`LocalSet::dump`](super::LocalSet::dump); see [`TaskInfo::trace`](super::TaskInfo::trace).
#[derive(Debug, Clone)]
pub struct Trace {
    chains: Vec<Arc<[Frame]>>,
    root: &'static str,
}

impl Trace {
    pub(crate) fn new(chains: Vec<Arc<[Frame]>>, root: &'static str) -> Trace {
        Trace { chains, root }
    }

    /// One chain per rt resource the task waits on (more than one under a
    /// `join!` or `select!`), each innermost frame first. When the poll
    /// reached no rt resource, one chain per place that kept the task's
    /// waker (a future that returns `Pending` on its own), ending there;
    /// empty when there was none of those either.
    pub fn chains(&self) -> impl Iterator<Item = &[Frame]> {
        self.chains.iter().map(|chain| &**chain)
    }

    /// The type name of the task's future.
    pub fn root(&self) -> &'static str {
        self.root
    }
}

impl fmt::Display for Trace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.chains.is_empty() {
            return writeln!(f, "{} (pending without reaching an rt resource)", self.root);
        }
        for (n, chain) in self.chains.iter().enumerate() {
            if n > 0 {
                writeln!(f, "and:")?;
            }
            for frame in chain.iter() {
                writeln!(f, "{frame}")?;
            }
        }
        Ok(())
    }
}

/// Picks the chain of awaits out of a resolved stack (innermost first):
/// the frames between the leaf hook and the task harness, without the
/// plumbing (`Pin`, `Box`, `poll_fn`, the task harness, unwinding guards).
fn chain_of_awaits(mut frames: Vec<Frame>) -> Vec<Frame> {
    let start = frames
        .iter()
        .rposition(|f| f.name.contains("task::trace::record") || f.name.contains("trace_leaf"))
        .map_or(0, |i| i + 1);
    let end = frames[start..]
        .iter()
        .position(|f| is_harness(&f.name))
        .map_or(frames.len(), |i| start + i);
    frames
        .drain(start..end.max(start))
        .filter(|f| !is_plumbing(&f.name))
        .map(|mut f| {
            f.name = future_type(&f.name).to_string();
            f
        })
        .collect()
}

/// `path::f::h0123456789abcdef` -> `path::f`.
fn strip_hash(name: &str) -> &str {
    match name.rsplit_once("::h") {
        Some((head, hash)) if hash.len() == 16 && hash.bytes().all(|b| b.is_ascii_hexdigit()) => {
            head
        }
        _ => name,
    }
}

/// `<path::Type as core::future::future::Future>::poll` -> `path::Type`.
fn future_type(name: &str) -> &str {
    name.strip_prefix('<')
        .and_then(|rest| rest.strip_suffix(" as core::future::future::Future>::poll"))
        .unwrap_or(name)
}

/// The task harness's frames, which call the task's future.
fn is_harness(name: &str) -> bool {
    [
        "rt_core::task::harness::",
        "rt_core::task::core::",
        "rt_core::task::raw::",
    ]
    .iter()
    .any(|p| name.starts_with(p))
}

/// Frames that only forward a poll.
fn is_plumbing(name: &str) -> bool {
    const PREFIXES: &[&str] = &[
        "core::",
        "std::",
        "alloc::",
        "<core::",
        "<std::",
        "<alloc::",
        "<&mut ",
        "<&",
        "rt_core::task::trace::",
        "rt_core::task::coop::",
        "<rt_core::task::coop::",
        "<rt_core::task::task_local::",
        "rt_core::task::task_local::",
        "rt_core::task::dump::",
        "rt_core::loom::",
        "rt_core::task::waker::",
        "__rust",
    ];
    PREFIXES.iter().any(|p| name.starts_with(p))
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    fn frame(name: &str, location: Option<(&str, u32)>) -> Frame {
        Frame {
            name: name.to_string(),
            location: location.map(|(file, line)| (file.to_string(), line)),
        }
    }

    #[test]
    fn picks_the_chain_of_awaits_out_of_a_stack() {
        let stack = vec![
            frame("rt_core::task::trace::collector::capture", None),
            frame(
                "rt_core::task::trace::record",
                Some(("rt-core/src/task/trace.rs", 60)),
            ),
            frame(
                "<rt_sync::mutex::Acquire as core::future::future::Future>::poll",
                Some(("rt-sync/src/mutex.rs", 100)),
            ),
            frame(
                "<core::pin::Pin<P> as core::future::future::Future>::poll",
                Some(("/rustc/x/library/core/src/future/future.rs", 133)),
            ),
            frame("app::inner::{{closure}}", Some(("src/main.rs", 7))),
            frame("rt_core::task::core::Core<F,S>::poll", None),
            frame("main", None),
        ];
        let chain = chain_of_awaits(stack);
        let names: Vec<_> = chain.iter().map(|f| f.to_string()).collect();
        assert_eq!(
            names,
            [
                "rt_sync::mutex::Acquire at rt-sync/src/mutex.rs:100",
                "app::inner::{{closure}} at src/main.rs:7"
            ]
        );
    }

    #[test]
    fn strips_the_hash_suffix() {
        assert_eq!(strip_hash("app::inner::h0123456789abcdef"), "app::inner");
        assert_eq!(strip_hash("app::h"), "app::h");
    }

    #[test]
    fn outside_a_dump_leaves_proceed() {
        assert_eq!(trace_leaf(), Poll::Ready(()));
        assert!(!is_tracing());
    }
}
