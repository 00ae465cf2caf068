//! Builds the runtime a workload runs on, the same way for both crates:
//! every driver enabled, as applications usually configure it.

use super::tk;
use bench_harness::Flavor;

/// A runtime of `flavor`.
pub fn runtime(flavor: Flavor) -> tk::runtime::Runtime {
    let built = match flavor {
        Flavor::CurrentThread => tk::runtime::Builder::new_current_thread()
            .enable_all()
            .build(),
        Flavor::MultiThread(workers) => tk::runtime::Builder::new_multi_thread()
            .worker_threads(workers)
            .enable_all()
            .build(),
        Flavor::MultiThreadDefault => tk::runtime::Builder::new_multi_thread()
            .enable_all()
            .build(),
    };
    built.expect("the benchmark runtime builds")
}
