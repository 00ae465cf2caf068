//! Shared helpers of the `fs_*` tests: a scratch directory that removes
//! itself, and runtimes to drive the tests.

#![allow(dead_code)]

use std::future::Future;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// A fresh directory under the system temp dir, removed on drop.
pub struct Scratch {
    path: PathBuf,
}

impl Scratch {
    /// Creates a directory whose name holds the test name, the process id
    /// and a counter, so parallel tests and runs never collide.
    pub fn new(test: &str) -> Scratch {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let path =
            std::env::temp_dir().join(format!("rt-fs-test-{}-{}-{}", test, std::process::id(), n));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).unwrap();
        Scratch { path }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn join(&self, name: &str) -> PathBuf {
        self.path.join(name)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

/// Runs `fut` on a fresh current-thread runtime.
pub fn run<F: Future>(fut: F) -> F::Output {
    rt_core::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
        .block_on(fut)
}

/// Runs `fut` on a fresh multi-thread runtime with two workers.
pub fn run_multi<F: Future>(fut: F) -> F::Output {
    rt_core::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .build()
        .unwrap()
        .block_on(fut)
}

/// `len` bytes of a pattern that differs at every offset modulo 251.
pub fn pattern(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i % 251) as u8).collect()
}
