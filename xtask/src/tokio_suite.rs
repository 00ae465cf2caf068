//! `cargo xtask tokio-suite`: tokio's own integration tests, run against rt
//! under tokio's crate name (compat/tokio).
//!
//! The tests are tokio 1.54.1's, read from cargo's registry source where
//! `cargo fetch` puts them; nothing of them is copied into the repository.
//! xtask writes a crate under `target/tokio-suite/rt` with one `[[test]]`
//! per test file, pointing at the registry path, tokio's dev-dependencies,
//! and `[patch.crates-io]` replacing tokio with compat/tokio. Then:
//!
//! 1. it builds every test file (`--keep-going`): a file that does not
//!    compile counts every one of its tests as failed, the count taken from
//!    the same file built against the real tokio (a second generated crate,
//!    `target/tokio-suite/tokio`), or, if that fails too, from its test
//!    attributes; a file with no tests (compile-time checks only) counts as
//!    one test, `(compiles)`;
//! 2. it lists each binary's tests and runs every test alone
//!    (`--exact NAME`) under a deadline, a few at a time, so that a hang
//!    costs one test and not the run; a test that fails is run once more,
//!    and one that then passes is printed as `FLAKY` and counts as passed;
//! 3. it prints a table per file and the totals, writes every failure with
//!    a one-line reason to `target/tokio-suite/failures.txt`, and compares
//!    the failures with two committed lists: compat/tokio/known-differences.txt
//!    (what rt does differently on purpose) and compat/tokio/open-gaps.txt
//!    (behaviour rt still has to match, each with what is wrong).
//!
//! It fails when fewer than [`REQUIRED_PERCENT`] of the tests pass, or when
//! a test fails that neither list names: a regression. Listed tests that
//! pass are reported, so that the lists only hold what still fails; the
//! open gaps are counted in the summary.
//!
//! `cargo xtask tokio-suite --io-driver uring` runs the same tests on rt's
//! io_uring driver: compat/tokio's `io-uring` feature (rt's) is on, and
//! every test process gets `RT_IO_DRIVER=uring`, so each runtime a test
//! builds probes and runs io_uring; its crate is
//! `target/tokio-suite/rt-uring` and its failures go to
//! `failures-uring.txt`. The same lists apply: a test that fails only on
//! io_uring is a regression of the driver.
//!
//! `RT_TOKIO_SUITE_JOBS` (tests run at once, 3 by default) and
//! `RT_TOKIO_SUITE_DEADLINE` (seconds per test, 60 by default) tune a run;
//! `cargo xtask tokio-suite FILTER` runs only the files whose name contains
//! FILTER (and checks nothing but the list).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::thread;
use std::time::{Duration, Instant};

use crate::cargo::{cargo_command, cargo_in, cargo_stdout, workspace_root};
use crate::test_binaries::{parse_artifact, string_field};

/// The tokio release whose tests are run.
const TOKIO_VERSION: &str = "1.54.1";

/// The share of tests that must pass, in percent.
const REQUIRED_PERCENT: f64 = 95.0;

/// The bound on one test, unless `RT_TOKIO_SUITE_DEADLINE` says otherwise.
const TEST_DEADLINE: Duration = Duration::from_secs(60);

/// Tests run at once, unless `RT_TOKIO_SUITE_JOBS` says otherwise.
const JOBS: usize = 3;

/// The test a file without tests counts as when it does not compile.
const COMPILES: &str = "(compiles)";

/// The known differences, relative to the workspace root.
const KNOWN_DIFFERENCES: &str = "compat/tokio/known-differences.txt";

/// The open gaps, relative to the workspace root: failures that are not
/// intended, listed so that the run catches any new one.
const OPEN_GAPS: &str = "compat/tokio/open-gaps.txt";

/// tokio's dev-dependencies, as its tests use them (its own Cargo.toml
/// lists them; `bytes`, `futures-util`, `libc` and `pin-project-lite` are
/// dependencies of its own or of its dev-dependencies that tests name).
const DEV_DEPENDENCIES: &str = r#"async-stream = "0.3"
bytes = "1"
futures = { version = "0.3", features = ["async-await"] }
futures-concurrency = "7.6.3"
futures-test = "0.3.31"
futures-util = "0.3"
libc = "0.2"
mockall = "0.13"
nix = { version = "0.31", default-features = false, features = ["aio", "fs", "socket"] }
pin-project-lite = "0.2"
proptest = "1"
rand = "0.9"
socket2 = { version = "0.6", features = ["all"] }
tempfile = "3"
tokio-stream = "0.1"
tokio-test = "0.4"
"#;

/// tokio's feature names: the test files gate themselves on them
/// (`#![cfg(feature = "full")]`, `#![cfg(feature = "sync")]`, ...), so the
/// generated crate has each, all on by default.
const FEATURES: &[&str] = &[
    "fs",
    "io-util",
    "io-std",
    "macros",
    "net",
    "parking_lot",
    "process",
    "rt",
    "rt-multi-thread",
    "signal",
    "sync",
    "time",
];

/// One test file's result.
#[derive(Debug, Default)]
struct FileResult {
    /// Whether it compiled against rt.
    compiled: bool,
    /// Its tests (not counting ignored ones), in listing order.
    tests: Vec<String>,
    /// The tests that failed, each with a one-line reason.
    failed: BTreeMap<String, String>,
    /// The compiler's errors, when it did not compile.
    errors: Vec<String>,
}

/// `cargo xtask tokio-suite [FILTER]`.
pub fn tokio_suite(args: &[String]) -> Result<(), String> {
    let started = Instant::now();
    let (io_uring, args) = io_driver_arg(args)?;
    if io_uring {
        // Read by every runtime the tests build; set before any thread or
        // child process starts, so all of them inherit it.
        std::env::set_var("RT_IO_DRIVER", "uring");
    }
    let filter = args.first().map(String::as_str);
    let root = workspace_root();
    let base = root.join("target").join("tokio-suite");
    let tests_dir = fetch_tokio(&base)?;
    let files = test_files(&tests_dir, filter)?;
    if files.is_empty() {
        return Err(format!("no test file of tokio matches {filter:?}"));
    }
    let target_dir = base.join("target");
    let rt_crate = base.join(if io_uring { "rt-uring" } else { "rt" });
    let patch = root.join("compat").join("tokio");
    let extra_features: &[&str] = if io_uring { &["io-uring"] } else { &[] };
    write_crate(&rt_crate, &files, &tests_dir, Some(&patch), extra_features)?;
    let (binaries, mut errors) = build(&rt_crate, &target_dir)?;

    let mut results: BTreeMap<String, FileResult> = BTreeMap::new();
    for file in &files {
        let result = results.entry(file.clone()).or_default();
        match binaries.get(file) {
            Some(binary) => {
                result.compiled = true;
                result.tests = list_tests(binary, &rt_crate)?;
            }
            None => result.errors = errors.remove(file).unwrap_or_default(),
        }
    }
    count_uncompiled(&base, &tests_dir, &target_dir, &mut results)?;
    let package = tests_dir
        .parent()
        .ok_or_else(|| format!("{tests_dir:?} has no parent"))?;
    run_all(&binaries, &rt_crate, package, &mut results)?;

    let known = read_known_differences(&root.join(KNOWN_DIFFERENCES))?;
    let gaps = read_known_differences(&root.join(OPEN_GAPS))?;
    let report = report(&results, &known, &gaps, filter.is_none());
    let failures = base.join(if io_uring {
        "failures-uring.txt"
    } else {
        "failures.txt"
    });
    fs::write(&failures, failure_list(&results))
        .map_err(|e| format!("could not write the failure list: {e}"))?;
    println!(
        "xtask tokio-suite{}: {} (every failure: {}) in {:.0?}",
        if io_uring { " (io_uring)" } else { "" },
        report.summary,
        failures.display(),
        started.elapsed()
    );
    if report.problems.is_empty() {
        Ok(())
    } else {
        Err(report.problems.join("\n"))
    }
}

/// Takes `--io-driver uring|epoll` out of `args`: whether the run is on
/// io_uring, and the other arguments.
fn io_driver_arg(args: &[String]) -> Result<(bool, Vec<String>), String> {
    let mut io_uring = false;
    let mut rest = Vec::new();
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        if arg != "--io-driver" {
            rest.push(arg.clone());
            continue;
        }
        io_uring = match args.next().map(String::as_str) {
            Some("uring") => true,
            Some("epoll") => false,
            other => return Err(format!("--io-driver takes uring or epoll, not {other:?}")),
        };
    }
    Ok((io_uring, rest))
}

/// Fetches tokio's package with cargo and returns its `tests` directory in
/// cargo's registry source.
fn fetch_tokio(base: &Path) -> Result<PathBuf, String> {
    let dir = base.join("fetch");
    let manifest = format!(
        "[package]\nname = \"tokio-suite-fetch\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\
         publish = false\n\n[workspace]\n\n[dependencies]\ntokio = \"={TOKIO_VERSION}\"\n"
    );
    write_package(&dir, &manifest)?;
    cargo_in(&dir, &["fetch"], &[])?;
    let metadata = cargo_stdout(&dir, &["metadata", "--format-version", "1"], &[])?;
    let wanted = format!("tokio-{TOKIO_VERSION}");
    metadata
        .split("\"manifest_path\":\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .map(|path| {
            Path::new(path)
                .parent()
                .unwrap_or(Path::new(""))
                .to_path_buf()
        })
        .find(|dir| dir.file_name().is_some_and(|name| name == wanted.as_str()))
        .map(|dir| dir.join("tests"))
        .ok_or_else(|| format!("`cargo metadata` does not name tokio {TOKIO_VERSION}'s package"))
}

/// The integration test files (by name, without `.rs`) in `dir`, sorted;
/// with a filter, those whose name contains it.
fn test_files(dir: &Path, filter: Option<&str>) -> Result<Vec<String>, String> {
    let entries =
        fs::read_dir(dir).map_err(|e| format!("could not read {}: {e}", dir.display()))?;
    let mut files: Vec<String> = entries
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let name = entry.file_name().to_string_lossy().into_owned();
            name.strip_suffix(".rs").map(str::to_string)
        })
        .filter(|name| filter.map_or(true, |filter| name.contains(filter)))
        .collect();
    files.sort();
    Ok(files)
}

/// Writes the crate that builds `files` as its tests, against rt
/// (`patch`: compat/tokio's path) or against the real tokio (`None`), with
/// tokio's `extra_features` on beside `full` and `test-util`.
fn write_crate(
    dir: &Path,
    files: &[String],
    tests_dir: &Path,
    patch: Option<&Path>,
    extra_features: &[&str],
) -> Result<(), String> {
    let mut manifest = String::from(
        "# Generated by `cargo xtask tokio-suite`; not part of the repository.\n\
         [package]\nname = \"tokio-suite\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\
         publish = false\nautotests = false\n\n[workspace]\n\n[features]\n",
    );
    let quoted: Vec<String> = FEATURES.iter().map(|f| format!("\"{f}\"")).collect();
    let _ = writeln!(
        manifest,
        "default = [\"full\"]\nfull = [{}]",
        quoted.join(", ")
    );
    for feature in FEATURES {
        let _ = writeln!(manifest, "{feature} = []");
    }
    let tokio = match patch {
        Some(_) => TOKIO_VERSION.to_string(),
        None => format!("={TOKIO_VERSION}"),
    };
    let tokio_features: Vec<String> = ["full", "test-util"]
        .iter()
        .chain(extra_features)
        .map(|f| format!("\"{f}\""))
        .collect();
    let _ = write!(
        manifest,
        "\n[dev-dependencies]\ntokio = {{ version = \"{tokio}\", features = [{}] }}\n{DEV_DEPENDENCIES}",
        tokio_features.join(", ")
    );
    if let Some(path) = patch {
        let _ = write!(
            manifest,
            "\n[patch.crates-io]\ntokio = {{ path = {} }}\n",
            toml_string(path)
        );
    }
    // About 190 test binaries: line tables keep panic locations and
    // backtraces readable at a fraction of full debug info's disk, and a
    // build that is never edited gains nothing from incremental state.
    manifest.push_str("\n[profile.dev]\ndebug = \"line-tables-only\"\nincremental = false\n");
    for file in files {
        let path = tests_dir.join(format!("{file}.rs"));
        let _ = write!(
            manifest,
            "\n[[test]]\nname = \"{file}\"\npath = {}\n",
            toml_string(&path)
        );
    }
    write_package(dir, &manifest)
}

/// A path as a TOML string.
fn toml_string(path: &Path) -> String {
    let text = path.display().to_string();
    format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\""))
}

/// Writes `manifest` and an empty library into `dir`.
fn write_package(dir: &Path, manifest: &str) -> Result<(), String> {
    let write = || -> std::io::Result<()> {
        fs::create_dir_all(dir.join("src"))?;
        fs::write(dir.join("Cargo.toml"), manifest)?;
        fs::write(dir.join("src").join("lib.rs"), "")
    };
    write().map_err(|e| format!("could not write {}: {e}", dir.display()))
}

/// Builds the crate's tests, going on past files that do not compile.
/// Returns the executable of each file that compiled and the errors of
/// each that did not.
#[allow(clippy::type_complexity)]
fn build(
    dir: &Path,
    target_dir: &Path,
) -> Result<(BTreeMap<String, PathBuf>, BTreeMap<String, Vec<String>>), String> {
    let args = ["build", "--tests", "--keep-going", "--message-format=json"];
    println!("xtask: cargo {} (in {})", args.join(" "), dir.display());
    let started = Instant::now();
    let output = cargo_command()
        .args(args)
        .env("CARGO_TARGET_DIR", target_dir)
        .current_dir(dir)
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("could not start cargo: {e}"))?;
    println!("xtask: ... {:.1?}", started.elapsed());
    let stdout = String::from_utf8_lossy(&output.stdout);
    let mut binaries = BTreeMap::new();
    let mut errors: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for line in stdout.lines() {
        if let Some(binary) = parse_artifact(line) {
            binaries.insert(binary.target, binary.path);
        } else if let Some((target, error)) = compile_error(line) {
            let list = errors.entry(target).or_default();
            if !list.contains(&error) {
                list.push(error);
            }
        }
    }
    if binaries.is_empty() && !output.status.success() {
        return Err(format!(
            "no test file compiled ({}); see cargo's output above",
            output.status
        ));
    }
    Ok((binaries, errors))
}

/// The test target and first line of an error that a `compiler-message`
/// line reports.
fn compile_error(line: &str) -> Option<(String, String)> {
    if string_field(line, "reason")? != "compiler-message" {
        return None;
    }
    let rendered = string_field(line, "rendered")?;
    let first = rendered.lines().next()?.to_string();
    if !first.starts_with("error") || first.starts_with("error: aborting") {
        return None;
    }
    let target = line.split("\"target\":{").nth(1)?;
    Some((string_field(target, "name")?, first))
}

/// The tests of `binary` that run by default (ignored ones left out).
fn list_tests(binary: &Path, dir: &Path) -> Result<Vec<String>, String> {
    let all = listed(binary, dir, &["--list"])?;
    let ignored: BTreeSet<String> = listed(binary, dir, &["--list", "--ignored"])?
        .into_iter()
        .collect();
    Ok(all.into_iter().filter(|t| !ignored.contains(t)).collect())
}

fn listed(binary: &Path, dir: &Path, args: &[&str]) -> Result<Vec<String>, String> {
    let output = Command::new(binary)
        .args(args)
        .current_dir(dir)
        .output()
        .map_err(|e| format!("could not run {}: {e}", binary.display()))?;
    Ok(String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| line.strip_suffix(": test"))
        .map(str::to_string)
        .collect())
}

/// Gives every file that did not compile its test count, from the same
/// file built against the real tokio, or else from its test attributes.
fn count_uncompiled(
    base: &Path,
    tests_dir: &Path,
    target_dir: &Path,
    results: &mut BTreeMap<String, FileResult>,
) -> Result<(), String> {
    let uncompiled: Vec<String> = results
        .iter()
        .filter(|(_, r)| !r.compiled)
        .map(|(file, _)| file.clone())
        .collect();
    if uncompiled.is_empty() {
        return Ok(());
    }
    println!(
        "xtask: {} files did not compile against rt; counting their tests against tokio {TOKIO_VERSION}",
        uncompiled.len()
    );
    let dir = base.join("tokio");
    write_crate(&dir, &uncompiled, tests_dir, None, &[])?;
    let (binaries, _) = build(&dir, target_dir).unwrap_or_default();
    for file in uncompiled {
        let result = results.get_mut(&file).expect("every file has a result");
        result.tests = match binaries.get(&file) {
            Some(binary) => list_tests(binary, &dir)?,
            None => attribute_count(&tests_dir.join(format!("{file}.rs")))
                .map(|n| (1..=n).map(|i| format!("#{i}")).collect())
                .unwrap_or_default(),
        };
        if result.tests.is_empty() {
            // A file of compile-time checks only (`async_send_sync`): its
            // one test is that it compiles.
            result.tests.push(COMPILES.to_string());
        }
        let reason = format!(
            "does not compile: {}",
            result
                .errors
                .first()
                .map_or("(no error read)", String::as_str)
        );
        result.failed = result
            .tests
            .iter()
            .map(|t| (t.clone(), reason.clone()))
            .collect();
    }
    Ok(())
}

/// How many test attributes a file has (`#[test]`, `#[tokio::test...]`).
fn attribute_count(path: &Path) -> Option<usize> {
    let text = fs::read_to_string(path).ok()?;
    Some(
        text.lines()
            .map(str::trim_start)
            .filter(|l| l.starts_with("#[test]") || l.starts_with("#[tokio::test"))
            .count(),
    )
}

/// Runs every listed test alone, `RT_TOKIO_SUITE_JOBS` at a time, and
/// records the failures. The tests run in tokio's package directory, as
/// under `cargo test` in tokio itself (some read files there); their
/// output goes under `dir`.
fn run_all(
    binaries: &BTreeMap<String, PathBuf>,
    dir: &Path,
    package: &Path,
    results: &mut BTreeMap<String, FileResult>,
) -> Result<(), String> {
    let deadline = env_number("RT_TOKIO_SUITE_DEADLINE", TEST_DEADLINE.as_secs())?;
    let deadline = Duration::from_secs(deadline);
    let jobs = env_number("RT_TOKIO_SUITE_JOBS", JOBS as u64)?.max(1) as usize;
    let work: Vec<(String, String)> = results
        .iter()
        .filter(|(_, r)| r.compiled)
        .flat_map(|(file, r)| r.tests.iter().map(move |t| (file.clone(), t.clone())))
        .collect();
    println!(
        "xtask: running {} tests one by one, {jobs} at a time, each bounded at {} s",
        work.len(),
        deadline.as_secs()
    );
    let next = AtomicUsize::new(0);
    let failures = Mutex::new(Vec::new());
    let scratch = dir.join("output");
    fs::create_dir_all(&scratch).map_err(|e| format!("could not create {scratch:?}: {e}"))?;
    thread::scope(|scope| {
        for worker in 0..jobs {
            let (next, failures, work, scratch) = (&next, &failures, &work, &scratch);
            scope.spawn(move || loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                let Some((file, test)) = work.get(index) else {
                    break;
                };
                let log = scratch.join(format!("worker-{worker}.log"));
                let mut outcome = run_test(&binaries[file], package, test, deadline, &log);
                if let Err(reason) = &outcome {
                    // A second run tells a flaky test from a failing one:
                    // it counts as passed, and is named so that it is seen.
                    if run_test(&binaries[file], package, test, deadline, &log).is_ok() {
                        println!(
                            "FLAKY {file}::{test}: failed once ({reason}), passed when run again"
                        );
                        outcome = Ok(());
                    }
                }
                if let Err(reason) = outcome {
                    println!("FAIL {file}::{test}: {reason}");
                    failures.lock().unwrap_or_else(|e| e.into_inner()).push((
                        file.clone(),
                        test.clone(),
                        reason,
                    ));
                }
                if (index + 1) % 200 == 0 {
                    println!("xtask: ... {} of {} tests run", index + 1, work.len());
                }
            });
        }
    });
    for (file, test, reason) in failures.into_inner().unwrap_or_else(|e| e.into_inner()) {
        if let Some(result) = results.get_mut(&file) {
            result.failed.insert(test, reason);
        }
    }
    Ok(())
}

/// Runs one test alone; the error is why it failed, in one line.
fn run_test(
    binary: &Path,
    dir: &Path,
    test: &str,
    deadline: Duration,
    log: &Path,
) -> Result<(), String> {
    let out = fs::File::create(log).map_err(|e| format!("could not create {log:?}: {e}"))?;
    let err = out.try_clone().map_err(|e| e.to_string())?;
    let mut child = Command::new(binary)
        .args(["--exact", test, "--test-threads=1"])
        .current_dir(dir)
        .env("CARGO_MANIFEST_DIR", dir)
        .stdin(Stdio::null())
        .stdout(out)
        .stderr(err)
        .spawn()
        .map_err(|e| format!("could not run {}: {e}", binary.display()))?;
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            break Some(status);
        }
        if started.elapsed() >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        thread::sleep(Duration::from_millis(20));
    };
    let output = fs::read_to_string(log).unwrap_or_default();
    match status {
        None => Err(format!("hangs (killed after {} s)", deadline.as_secs())),
        Some(status) if status.success() && output.contains("1 passed") => Ok(()),
        Some(status) if status.success() => Err("did not run (filtered out)".to_string()),
        Some(status) => Err(failure_reason(&output, &status.to_string())),
    }
}

/// The panic message of a failed test's output, in one line: with the
/// two sides of a failed `assert_eq!`, and libtest's note when a
/// `#[should_panic]` test did not panic as it expected.
fn failure_reason(output: &str, status: &str) -> String {
    let mut reason = String::new();
    let mut lines = output.lines();
    while let Some(line) = lines.next() {
        let line = line.trim();
        if line.contains("panicked at") && reason.is_empty() {
            let message = lines.next().unwrap_or("").trim();
            reason = format!("panicked: {message}");
        } else if ["left:", "right:", "panic message:", "expected substring:"]
            .iter()
            .any(|side| line.starts_with(side))
        {
            reason = format!("{reason}; {line}");
        } else if let Some(note) = line.strip_prefix("note: ") {
            if note.contains("panic") && !note.starts_with("run with") {
                reason = format!("{reason}; {note}");
            }
        } else if line.starts_with("test result:") {
            break;
        }
    }
    if reason.is_empty() {
        return format!("failed without a panic message ({status})");
    }
    let reason = reason.trim_start_matches("; ");
    let shortened: String = reason.chars().take(300).collect();
    shortened
}

fn env_number(name: &str, default: u64) -> Result<u64, String> {
    match std::env::var(name) {
        Err(_) => Ok(default),
        Ok(text) => text
            .trim()
            .parse()
            .map_err(|_| format!("{name}={text:?} is not a number")),
    }
}

/// `file::test` to its reason, from the list of known differences: lines
/// `file::test  reason`; blank lines and `#` comments skipped.
fn read_known_differences(path: &Path) -> Result<BTreeMap<String, String>, String> {
    let text =
        fs::read_to_string(path).map_err(|e| format!("could not read {}: {e}", path.display()))?;
    parse_known_differences(&text)
}

fn parse_known_differences(text: &str) -> Result<BTreeMap<String, String>, String> {
    let mut known = BTreeMap::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (name, reason) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        if !name.contains("::") || reason.trim().is_empty() {
            return Err(format!(
                "{KNOWN_DIFFERENCES}:{}: expected `file::test  reason`, found {line:?}",
                number + 1
            ));
        }
        known.insert(name.to_string(), reason.trim().to_string());
    }
    Ok(known)
}

/// What the run found: a summary line, and what makes it fail.
struct Report {
    summary: String,
    problems: Vec<String>,
}

/// Prints the table and checks the results against `known`; `whole`
/// says whether every file ran (only then the pass rate is checked).
fn report(
    results: &BTreeMap<String, FileResult>,
    known: &BTreeMap<String, String>,
    gaps: &BTreeMap<String, String>,
    whole: bool,
) -> Report {
    println!(
        "\n{:<40} {:>9} {:>8} {:>6}",
        "file", "compiled", "passed", "total"
    );
    let (mut passed, mut total, mut compiled) = (0, 0, 0);
    let mut unexpected = Vec::new();
    let mut failing = BTreeSet::new();
    for (file, result) in results {
        let file_total = result.tests.len();
        let file_passed = file_total - result.failed.len();
        println!(
            "{file:<40} {:>9} {file_passed:>8} {file_total:>6}",
            if result.compiled { "yes" } else { "NO" }
        );
        passed += file_passed;
        total += file_total;
        compiled += usize::from(result.compiled);
        for (test, reason) in &result.failed {
            let name = format!("{file}::{test}");
            if !known.contains_key(&name) && !gaps.contains_key(&name) {
                unexpected.push(format!("  {name}: {reason}"));
            }
            failing.insert(name);
        }
    }
    let percent = if total == 0 {
        100.0
    } else {
        100.0 * passed as f64 / total as f64
    };
    let summary = format!(
        "{compiled} of {} files compiled, {passed} of {total} tests passed ({percent:.1}%)",
        results.len()
    );
    println!("{:<40} {compiled:>9} {passed:>8} {total:>6}\n", "total");
    let ran: BTreeSet<&String> = results.keys().collect();
    for (list, entries) in [(KNOWN_DIFFERENCES, known), (OPEN_GAPS, gaps)] {
        let now_passing = entries.keys().filter(|name| {
            let file = name.split("::").next().unwrap_or("");
            ran.contains(&file.to_string()) && !failing.contains(*name)
        });
        for name in now_passing {
            println!("xtask tokio-suite: listed in {list} but passes now: {name}");
        }
    }
    let open = failing
        .iter()
        .filter(|name| gaps.contains_key(*name))
        .count();
    let summary = format!("{summary}; {open} failures are open gaps ({OPEN_GAPS})");
    let mut problems = Vec::new();
    if whole && percent < REQUIRED_PERCENT {
        problems.push(format!(
            "{percent:.1}% of tokio's tests pass on rt; at least {REQUIRED_PERCENT}% must"
        ));
    }
    if !unexpected.is_empty() {
        problems.push(format!(
            "{} tests fail that neither {KNOWN_DIFFERENCES} nor {OPEN_GAPS} lists:\n{}",
            unexpected.len(),
            unexpected.join("\n")
        ));
    }
    Report { summary, problems }
}

/// Every failure, `file::test  reason`, one a line, then each file that
/// did not compile with its errors.
fn failure_list(results: &BTreeMap<String, FileResult>) -> String {
    let mut text = String::new();
    for (file, result) in results {
        for (test, reason) in &result.failed {
            let _ = writeln!(text, "{file}::{test}  {reason}");
        }
    }
    for (file, result) in results.iter().filter(|(_, r)| !r.compiled) {
        let _ = writeln!(text, "\n# {file} does not compile:");
        for error in &result.errors {
            let _ = writeln!(text, "#   {error}");
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_differences_are_read() {
        let text = "# comment\n\nsync_mpsc::a  names tokio in its panic\nfs::b\treason two\n";
        let known = parse_known_differences(text).unwrap();
        assert_eq!(known["sync_mpsc::a"], "names tokio in its panic");
        assert_eq!(known["fs::b"], "reason two");
        assert!(parse_known_differences("no_reason::x\n").is_err());
        assert!(parse_known_differences("missing-separator reason\n").is_err());
    }

    #[test]
    fn a_panic_message_is_the_reason() {
        let out = "running 1 test\n\nthread 'a' panicked at tests/x.rs:3:5:\nboom\nnote: ...\n\
                   test result: FAILED. 0 passed; 1 failed";
        assert_eq!(failure_reason(out, "exit status: 101"), "panicked: boom");
        let out = "thread 'a' panicked at x.rs:1:1:\nassertion `left == right` failed\n  \
                   left: 1\n right: 2\nnote: panic did not contain expected string\n";
        assert_eq!(
            failure_reason(out, "exit status: 101"),
            "panicked: assertion `left == right` failed; left: 1; right: 2; \
             panic did not contain expected string"
        );
        assert!(failure_reason("", "signal: 6").contains("signal: 6"));
    }

    #[test]
    fn a_compile_error_names_its_target() {
        let line = r#"{"reason":"compiler-message","package_id":"p","manifest_path":"/m","target":{"kind":["test"],"name":"sync_mpsc","src_path":"/s"},"message":{"rendered":"error[E0425]: cannot find x\n  --> here","children":[]}}"#;
        assert_eq!(
            compile_error(line),
            Some((
                "sync_mpsc".to_string(),
                "error[E0425]: cannot find x".to_string()
            ))
        );
        let warning = line.replace("error[E0425]", "warning");
        assert_eq!(compile_error(&warning), None);
    }
}
