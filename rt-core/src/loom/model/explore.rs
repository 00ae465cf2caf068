//! Running a loom model under a preemption bound of its own.

use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::Arc;

/// Runs `f` under loom, exploring every interleaving with at most
/// `preemptions` preemptions per execution (`LOOM_MAX_PREEMPTIONS` lowers
/// it further), and says how many executions that took (shown with
/// `--nocapture`).
///
/// A model whose state space is large (a whole scheduler) states its
/// bound here rather than relying on the environment, so that it runs in
/// seconds wherever it runs; a preemption bound of 1 or 2 finds the lost
/// wake-ups and ordering bugs a check-then-park protocol has, which need
/// one thread stopped between its check and its park.
pub fn explore(preemptions: usize, f: impl Fn() + Sync + Send + 'static) {
    let mut builder = loom::model::Builder::new();
    builder.preemption_bound = Some(
        builder
            .preemption_bound
            .map_or(preemptions, |env| env.min(preemptions)),
    );
    // Counted outside the model: a `std` atomic on purpose.
    let executions = Arc::new(AtomicUsize::new(0));
    let counter = executions.clone();
    builder.check(move || {
        counter.fetch_add(1, Relaxed);
        f();
    });
    println!("{} executions explored", executions.load(Relaxed));
}
