//! `cargo xtask cross`: the code that is not Linux's keeps compiling.
//!
//! CI runs on Linux, so a `cfg` arm for macOS or FreeBSD (kqueue, the
//! socket options those systems name differently, their `Ready` bits) is
//! never built by the test step, and one for Windows only by the slower
//! `cargo xtask windows`. Clippy for each target in [`TARGETS`],
//! every library crate and xtask with every feature and every target
//! (tests, benches), type-checks those arms and lints them as strictly as
//! the Linux ones; no code is generated, so no linker or SDK for the target
//! is needed, only its standard library (`rustup target add`).
//!
//! The examples and the benchmark harness are left out: the harness reads
//! each worker thread's CPU clock (`pthread_getcpuclockid`), which macOS
//! does not have, and the examples depend on the harness.

use crate::cargo::cargo;

/// The targets checked besides the host: one per kernel family rt's
/// reactor serves through kqueue, and Windows.
pub const TARGETS: &[&str] = &[
    "aarch64-apple-darwin",
    "x86_64-unknown-freebsd",
    "x86_64-pc-windows-gnu",
];

/// Clippy with warnings denied for every target in [`TARGETS`].
pub fn cross() -> Result<(), String> {
    for target in TARGETS {
        clippy_for(target)?;
    }
    Ok(())
}

/// Workspace members the check leaves out (see the module comment).
const LEFT_OUT: &[&str] = &["examples", "bench-harness"];

/// Clippy over the workspace, all targets and features, for `target`.
pub fn clippy_for(target: &str) -> Result<(), String> {
    let mut args = vec!["clippy", "--workspace"];
    for member in LEFT_OUT {
        args.extend(["--exclude", member]);
    }
    args.extend([
        "--all-targets",
        "--all-features",
        "--target",
        target,
        "--",
        "-D",
        "warnings",
    ]);
    cargo(&args, &[])
}
