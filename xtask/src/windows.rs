//! `cargo xtask windows [FILTER]`: rt's own test suite built for Windows
//! (`x86_64-pc-windows-gnu`) and run under wine, one binary at a time
//! under a deadline, with a table of what passed.
//!
//! What it needs, all from Debian: `gcc-mingw-w64-x86-64` (the linker, and
//! the compiler of the `ProcessPrng` shim) and `wine64` (8.0), plus
//! `rustup target add x86_64-pc-windows-gnu`. `.ci/run` installs them.
//!
//! Wine 8 lacks `bcryptprimitives.dll`, from which Rust's standard library
//! takes `ProcessPrng`; `.ci/wine/build-shim` builds a small replacement
//! from source and this command puts it beside the test binaries. The runs
//! use a wine prefix of their own under `target/wine`, so that nothing
//! outside the build directory is touched.
//!
//! Where wine behaves unlike Windows (or the wine setup lacks something a
//! test needs), the tests that meet the difference are listed in
//! [`WINE_DIFFERENCES`] with the cause, and skipped; any other failure is
//! rt's and fails the command.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use crate::cargo::workspace_root;
use crate::deadline::{binary_deadline, run_bounded};
use crate::libtest::test_counts;
use crate::test_binaries::{self, TestBinary};

/// The Windows target CI builds and runs.
pub const TARGET: &str = "x86_64-pc-windows-gnu";

/// The bound on each test binary under wine, unless
/// `RT_TEST_BINARY_DEADLINE` says otherwise: wine starts slowly and runs
/// some calls slower than Windows.
const DEADLINE: Duration = Duration::from_secs(300);

/// The workspace's test suites that run on Windows: every library crate
/// (the tools, examples and benchmark harness have suites of their own).
const PACKAGES: &[&str] = &[
    "rt",
    "rt-core",
    "rt-io",
    "rt-time",
    "rt-sync",
    "rt-codec",
    "rt-stream",
    "rt-macros",
];

/// Winsock resets a connection closed with `SO_LINGER` zero or with unread
/// data queued; wine 8 closes it gracefully, so the peer reads end of
/// stream where the tests expect `ConnectionReset`.
const NO_RESET: &str = "wine 8's closesocket sends FIN where Windows resets the connection \
                        (SO_LINGER zero, or unread data queued): the peer reads end of stream";

/// Tests that fail under wine for a reason that is not rt's (wine behaving
/// unlike Windows, or something the wine setup lacks):
/// `(package/target, test name, the reason)`. They are skipped.
pub const WINE_DIFFERENCES: &[(&str, &str, &str)] = &[
    ("rt-io/net_tcp", "peer_reset_helper_resets", NO_RESET),
    (
        "rt-io/net_tcp",
        "peer_reset_during_a_pending_read",
        NO_RESET,
    ),
    (
        "rt-io/net_tcp",
        "tcp_socket_options_listen_and_connect",
        NO_RESET,
    ),
    (
        "rt-codec/chat",
        "a_peer_that_hangs_up_mid_line_ends_the_stream_cleanly",
        NO_RESET,
    ),
    // Its resetting peer's half line then reaches the server as a last
    // line, which the server broadcasts to the chat clients.
    (
        "rt-codec/chat",
        "every_client_hears_every_other_client_in_order",
        NO_RESET,
    ),
    (
        "rt/macros_ui",
        "compile_errors",
        "trybuild runs cargo from the test, and the wine prefix has no Windows toolchain",
    ),
    (
        "rt-io/named_pipe",
        "first_pipe_instance_refuses_a_second_server",
        "wine 8's CreateNamedPipeW creates a second instance of an existing pipe name \
         though FILE_FLAG_FIRST_PIPE_INSTANCE is set, where Windows refuses it \
         (ERROR_ACCESS_DENIED)",
    ),
    (
        "rt-io/fs_functions",
        "copy_rename_and_remove_file",
        "std's fs::copy counts the bytes through CopyFileExW's progress routine, \
         which wine 8 does not call: the copy succeeds but reports 0 bytes",
    ),
];

/// Builds and runs the suite; `FILTER` keeps the binaries whose
/// `package/target` label contains it.
pub fn windows(args: &[String]) -> Result<(), String> {
    let filter = args.first().map(String::as_str).unwrap_or("");
    let started = Instant::now();
    let wine = wine_loader()?;
    let root = workspace_root();
    let wine_dir = root.join("target").join("wine");
    let shim = build_shim(&root, &wine_dir)?;
    let mut selection = vec!["--target", TARGET, "--all-features"];
    for package in PACKAGES {
        selection.extend(["-p", package]);
    }
    let binaries = test_binaries::build(&selection, &[])?;
    let limit = binary_deadline(DEADLINE)?;
    let mut rows = Vec::new();
    for binary in binaries.iter().filter(|b| b.label().contains(filter)) {
        place_shim(&shim, binary)?;
        rows.push(run_one(&wine, &wine_dir, binary, limit)?);
    }
    print_table(&rows);
    println!(
        "xtask windows: {} binaries in {:.0?}",
        rows.len(),
        started.elapsed()
    );
    let failed: Vec<String> = rows
        .iter()
        .filter(|row| !row.ok())
        .map(|row| row.label.clone())
        .collect();
    crate::deadline::all_passed(&failed, rows.len(), " under wine")
}

/// Wine's 64-bit loader: `$WINE`, else `wine64` on the PATH, else where
/// Debian's `wine64` package puts it (it adds nothing to the PATH).
fn wine_loader() -> Result<PathBuf, String> {
    if let Some(wine) = std::env::var_os("WINE") {
        return Ok(PathBuf::from(wine));
    }
    let on_path = std::env::var_os("PATH")
        .into_iter()
        .flat_map(|path| std::env::split_paths(&path).collect::<Vec<_>>())
        .map(|dir| dir.join("wine64"))
        .find(|candidate| candidate.is_file());
    let debian = PathBuf::from("/usr/lib/wine/wine64");
    on_path
        .or_else(|| debian.is_file().then_some(debian))
        .ok_or_else(|| "no wine64 loader: install Debian's wine64 package or set WINE".to_string())
}

/// Builds the `ProcessPrng` shim into `dir` with `.ci/wine/build-shim`.
fn build_shim(root: &Path, dir: &Path) -> Result<PathBuf, String> {
    let script = root.join(".ci").join("wine").join("build-shim");
    println!("xtask: {} {}", script.display(), dir.display());
    let status = Command::new(&script)
        .arg(dir)
        .status()
        .map_err(|e| format!("could not run {}: {e}", script.display()))?;
    if !status.success() {
        return Err(format!(
            "{} failed ({status}); it needs Debian's gcc-mingw-w64-x86-64",
            script.display()
        ));
    }
    Ok(dir.join("bcryptprimitives.dll"))
}

/// Copies the shim into the binary's directory, where Windows' loader
/// looks first.
fn place_shim(shim: &Path, binary: &TestBinary) -> Result<(), String> {
    let dir = binary
        .path
        .parent()
        .ok_or("a test binary has no directory")?;
    let placed = dir.join("bcryptprimitives.dll");
    if !placed.is_file() {
        std::fs::copy(shim, &placed)
            .map_err(|e| format!("could not copy the shim to {}: {e}", placed.display()))?;
    }
    Ok(())
}

/// One binary's outcome.
struct Row {
    label: String,
    passed: usize,
    failed: usize,
    ignored: usize,
    /// Tests skipped for a listed wine difference.
    wine: usize,
    /// How the run ended: `ok`, `FAILED (status)` or `killed at N s`.
    outcome: String,
    elapsed: Duration,
}

impl Row {
    fn ok(&self) -> bool {
        self.outcome == "ok"
    }
}

fn run_one(
    wine: &Path,
    wine_dir: &Path,
    binary: &TestBinary,
    limit: Duration,
) -> Result<Row, String> {
    let label = binary.label();
    let skipped: Vec<&str> = WINE_DIFFERENCES
        .iter()
        .filter(|(target, _, _)| *target == label)
        .map(|(_, test, _)| *test)
        .collect();
    println!("xtask: {label} under wine ({})", binary.path.display());
    let mut command = binary.command(&[wine.display().to_string()]);
    if !skipped.is_empty() {
        // `--exact` (once) makes each `--skip` name one test.
        command.arg("--exact");
    }
    for test in &skipped {
        command.args(["--skip", test]);
    }
    command
        .env("WINEDEBUG", "-all")
        .env("WINEPREFIX", wine_dir.join("prefix"))
        .env("RT_TEST_DEADLINE", (limit.as_secs() / 2).max(1).to_string());
    let run = run_bounded(&mut command, limit)?;
    let (passed, failed, ignored) = test_counts(&run.stdout);
    let outcome = match run.status {
        Some(status) if status.success() => "ok".to_string(),
        Some(status) => format!("FAILED ({status})"),
        None => format!("killed at {} s", limit.as_secs()),
    };
    Ok(Row {
        label,
        passed,
        failed,
        ignored,
        wine: skipped.len(),
        outcome,
        elapsed: run.elapsed,
    })
}

/// The pass table, as Markdown, with a total line.
fn print_table(rows: &[Row]) {
    println!("\n| binary | passed | failed | ignored | wine | outcome | time |");
    println!("|---|---:|---:|---:|---:|---|---:|");
    for row in rows {
        println!(
            "| {} | {} | {} | {} | {} | {} | {:.1} s |",
            row.label,
            row.passed,
            row.failed,
            row.ignored,
            row.wine,
            row.outcome,
            row.elapsed.as_secs_f64()
        );
    }
    let sum = |f: fn(&Row) -> usize| rows.iter().map(f).sum::<usize>();
    println!(
        "| total ({} of {} binaries ok) | {} | {} | {} | {} | | |\n",
        rows.iter().filter(|row| row.ok()).count(),
        rows.len(),
        sum(|r| r.passed),
        sum(|r| r.failed),
        sum(|r| r.ignored),
        sum(|r| r.wine),
    );
}
