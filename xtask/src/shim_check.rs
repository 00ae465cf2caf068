//! `cargo xtask ci`'s shim check: the crates that name their locks and
//! atomics through rt-core's loom shim (`rt_core::loom`, `crate::loom` in
//! rt-core) do not reach for `std::sync`'s atomics, `Mutex`, `RwLock` or
//! `Condvar`, nor for `parking_lot`, behind its back. A lock or atomic the
//! shim does not see is one that `--cfg loom` cannot swap for loom's, so a
//! model that runs through it misses its interleavings or deadlocks.
//!
//! A source scan, no build: every `std::sync::` (or `core::sync::`) path in
//! the crates' `src/` is read down to the name it takes from `std::sync`
//! (`std::sync::{Arc, atomic::AtomicBool}` takes `Arc` and `atomic`).
//! [`ALLOWED_NAMES`] may be taken anywhere; a name the shim provides may be
//! taken only where [`EXCEPTIONS`] lists the file, each with its reason.
//! Comments and test code are not read: items under a `cfg` that names
//! `test`, files named `tests.rs` or `loom_models.rs`, and the shim itself.

use std::path::Path;

use crate::cargo::workspace_root;

/// The crates whose `src/` follows the shim.
const CRATES: &[&str] = &["rt-core", "rt-io", "rt-sync", "rt-time"];

/// The shim itself, the one place that names `std` for the rest.
const SHIM: &str = "rt-core/src/loom/";

/// Names of `std::sync` that are no lock or atomic of a protocol, and why
/// they need no shim.
const ALLOWED_NAMES: &[(&str, &str)] = &[
    (
        "Arc",
        "handles, wakers and hooks: `Waker::from` needs a std `Arc<impl Wake>`, and loom's \
         `Arc` does not coerce to `Arc<dyn Trait>`; its count takes part in no protocol \
         (state shared within a protocol uses the shim's `Arc`)",
    ),
    ("Weak", "the weak side of those `Arc`s"),
    (
        "OnceLock",
        "set once before any modelled thread reads it (process-wide configuration, \
         lazily built tables)",
    ),
];

/// Files that may take a name the shim provides from `std::sync`, which
/// names, and why.
const EXCEPTIONS: &[(&str, &[&str], &str)] = &[
    (
        "rt-core/src/task/trace.rs",
        &["atomic"],
        "the process-wide count of threads in trace mode, a `static` (loom's atomics cannot \
         be statics), part of no protocol between threads, and compiled out under loom",
    ),
    (
        "rt-time/src/clock.rs",
        &["atomic"],
        "`EVER_PAUSED`, a process-wide `static` hint that only skips a runtime lookup until \
         some clock is paused (loom's atomics cannot be statics), part of no protocol \
         between threads",
    ),
    (
        "rt-io/src/process/unix/orphan.rs",
        &["Mutex", "MutexGuard", "TryLockError"],
        "the process-wide queue of orphaned child processes, a `static` (the shim's mutex is \
         not const-constructible under loom), touched only by `try_lock` from the reactor \
         and never inside a loom model",
    ),
];

/// Runs the check over the workspace; the error lists every use outside
/// the exceptions.
pub fn shim_check() -> Result<(), String> {
    let root = workspace_root();
    let mut found = Vec::new();
    let mut files = 0;
    for krate in CRATES {
        let mut paths = Vec::new();
        rust_files(&root.join(krate).join("src"), &mut paths);
        for path in paths {
            let relative = path
                .strip_prefix(&root)
                .unwrap_or(&path)
                .to_string_lossy()
                .replace('\\', "/");
            if relative.starts_with(SHIM) || is_test_file(&relative) {
                continue;
            }
            let source = std::fs::read_to_string(&path)
                .map_err(|e| format!("could not read {relative}: {e}"))?;
            files += 1;
            found.extend(violations(&relative, &source));
        }
    }
    println!("xtask: shim check: {files} files read");
    if found.is_empty() {
        return Ok(());
    }
    Err(format!(
        "locks or atomics used behind the loom shim's back (use `rt_core::loom::sync`, or \
         list the file in xtask/src/shim_check.rs's EXCEPTIONS with its reason):\n  {}",
        found.join("\n  ")
    ))
}

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.filter_map(|e| e.ok()).map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn is_test_file(relative: &str) -> bool {
    relative.ends_with("/tests.rs") || relative.ends_with("/loom_models.rs")
}

/// Every use in `source` (the file at `relative`) that is neither allowed
/// nor excepted, as `path:line: what`.
fn violations(relative: &str, source: &str) -> Vec<String> {
    let excepted: &[&str] = EXCEPTIONS
        .iter()
        .find(|(file, _, _)| *file == relative)
        .map_or(&[], |(_, names, _)| names);
    let code = without_test_code(&without_comments(source));
    let mut found = Vec::new();
    for (index, line) in code.lines().enumerate() {
        let at = |what: String| format!("{relative}:{}: {what}", index + 1);
        if line.contains("parking_lot") {
            found.push(at("`parking_lot`".to_string()));
        }
        for name in sync_names(line) {
            let allowed = ALLOWED_NAMES.iter().any(|(n, _)| *n == name);
            if !allowed && !excepted.contains(&name.as_str()) {
                found.push(at(format!("`std::sync::{name}`")));
            }
        }
    }
    found
}

/// The names `line` takes from `std::sync` (or `core::sync`): the first
/// segment after `sync::`, or each first segment of a `sync::{..}` group.
/// A `std::{..}` group is read for its `sync::` paths too.
fn sync_names(line: &str) -> Vec<String> {
    let compact: String = line.chars().filter(|c| !c.is_whitespace()).collect();
    let mut names = Vec::new();
    for prefix in ["std::sync::", "core::sync::"] {
        let mut rest = compact.as_str();
        while let Some(at) = rest.find(prefix) {
            rest = &rest[at + prefix.len()..];
            names.extend(first_segments(rest));
        }
    }
    for prefix in ["std::{", "core::{"] {
        let mut rest = compact.as_str();
        while let Some(at) = rest.find(prefix) {
            rest = &rest[at + prefix.len()..];
            let group = &rest[..group_end(rest)];
            for member in split_top_level(group) {
                if let Some(path) = member.strip_prefix("sync::") {
                    names.extend(first_segments(path));
                }
            }
        }
    }
    names
}

/// The first segment of `path`, or of each member when it opens a group.
fn first_segments(path: &str) -> Vec<String> {
    match path.strip_prefix('{') {
        Some(group) => split_top_level(&group[..group_end(group)])
            .into_iter()
            .filter_map(identifier)
            .collect(),
        None => identifier(path).into_iter().collect(),
    }
}

fn identifier(text: &str) -> Option<String> {
    let name: String = text
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    (!name.is_empty() && name != "self").then_some(name)
}

/// Where the group whose `{` came just before `text` closes (or the end).
fn group_end(text: &str) -> usize {
    let mut depth = 0usize;
    for (at, c) in text.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => return at,
            '}' => depth -= 1,
            _ => {}
        }
    }
    text.len()
}

/// The members of a group's contents, split at its own commas.
fn split_top_level(group: &str) -> Vec<&str> {
    let mut members = Vec::new();
    let (mut depth, mut start) = (0usize, 0);
    for (at, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                members.push(&group[start..at]);
                start = at + 1;
            }
            _ => {}
        }
    }
    members.push(&group[start..]);
    members
}

/// `source` with `//` and `/* */` comments blanked (line breaks kept, so
/// line numbers stay), string literals left as they are.
fn without_comments(source: &str) -> String {
    let mut out = String::with_capacity(source.len());
    let mut chars = source.chars().peekable();
    let mut in_string = false;
    while let Some(c) = chars.next() {
        if in_string {
            out.push(c);
            match c {
                '\\' => out.extend(chars.next()),
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match (c, chars.peek()) {
            ('"', _) => {
                in_string = true;
                out.push(c);
            }
            ('/', Some('/')) => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            ('/', Some('*')) => {
                chars.next();
                let mut last = ' ';
                for c in chars.by_ref() {
                    if c == '\n' {
                        out.push('\n');
                    }
                    if last == '*' && c == '/' {
                        break;
                    }
                    last = c;
                }
            }
            _ => out.push(c),
        }
    }
    out
}

/// `code` (without comments) with every item under a `#[cfg(..)]` that
/// names `test` blanked, line breaks kept: the attribute, any attributes
/// after it, and the item up to its `;` or its closing brace.
fn without_test_code(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let mut rest = code;
    while let Some(at) = rest.find("#[cfg") {
        out.push_str(&rest[..at]);
        let attribute_end = rest[at..].find(']').map_or(rest.len(), |e| at + e + 1);
        let attribute = &rest[at..attribute_end];
        if !cfg_names_test(attribute) {
            out.push_str(attribute);
            rest = &rest[attribute_end..];
            continue;
        }
        let item_end = item_end(&rest[attribute_end..]) + attribute_end;
        out.extend(rest[at..item_end].chars().filter(|c| *c == '\n'));
        rest = &rest[item_end..];
    }
    out.push_str(rest);
    out
}

/// Whether a `#[cfg(..)]` attribute's predicate names `test` (outside
/// strings: `feature = "test-util"` does not).
fn cfg_names_test(attribute: &str) -> bool {
    let mut outside_strings = String::new();
    let mut in_string = false;
    for c in attribute.chars() {
        if c == '"' {
            in_string = !in_string;
        } else if !in_string {
            outside_strings.push(if c.is_alphanumeric() || c == '_' {
                c
            } else {
                ' '
            });
        }
    }
    outside_strings.split(' ').any(|word| word == "test")
}

/// Where the item at the start of `text` ends: after its `;` at the top
/// level, or after the brace that closes its first `{`.
fn item_end(text: &str) -> usize {
    let mut depth = 0usize;
    for (at, c) in text.char_indices() {
        match c {
            ';' if depth == 0 => return at + 1,
            '{' => depth += 1,
            '}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return at + 1;
                }
            }
            _ => {}
        }
    }
    text.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_read_from_paths_and_groups() {
        assert_eq!(sync_names("use std::sync::Mutex;"), ["Mutex"]);
        assert_eq!(
            sync_names("use std::sync::{Arc, atomic::{AtomicBool, Ordering}};"),
            ["Arc", "atomic"]
        );
        assert_eq!(
            sync_names("static N: std::sync::atomic::AtomicUsize = x;"),
            ["atomic"]
        );
        assert_eq!(sync_names("use core::sync::atomic::AtomicU8;"), ["atomic"]);
        assert_eq!(
            sync_names("use std::{fmt, sync::{Arc, RwLock}};"),
            ["Arc", "RwLock"]
        );
        assert!(sync_names("use rt_core::loom::sync::Mutex;").is_empty());
    }

    #[test]
    fn a_planted_lock_is_found_and_allowed_names_pass() {
        let source = "use std::sync::{Arc, OnceLock};\nuse std::sync::Condvar;\n";
        assert_eq!(
            violations("rt-core/src/x.rs", source),
            ["rt-core/src/x.rs:2: `std::sync::Condvar`"]
        );
        let source = "fn f() {\n    let m = parking_lot::Mutex::new(0);\n}\n";
        assert_eq!(
            violations("rt-sync/src/x.rs", source),
            ["rt-sync/src/x.rs:2: `parking_lot`"]
        );
    }

    #[test]
    fn an_exception_covers_only_its_file_and_names() {
        let source = "use std::sync::atomic::{AtomicBool, Ordering};\n";
        assert!(violations("rt-time/src/clock.rs", source).is_empty());
        assert_eq!(violations("rt-time/src/entry.rs", source).len(), 1);
        let source = "use std::sync::Mutex;\n";
        assert_eq!(violations("rt-time/src/clock.rs", source).len(), 1);
    }

    #[test]
    fn comments_and_test_code_are_not_read() {
        let source = "\
//! Uses `std::sync::Mutex` nowhere.
/* std::sync::RwLock */
fn f() {}

#[cfg(all(test, not(loom)))]
mod tests {
    use std::sync::Mutex;
    fn g() { let _ = { 1 }; }
}

#[cfg(feature = \"test-util\")]
use std::sync::atomic::AtomicBool;
";
        assert_eq!(
            violations("rt-core/src/x.rs", source),
            ["rt-core/src/x.rs:12: `std::sync::atomic`"]
        );
        assert!(is_test_file("rt-core/src/a/tests.rs"));
        assert!(is_test_file("rt-core/src/a/loom_models.rs"));
    }

    #[test]
    fn every_exception_has_a_reason_and_a_file() {
        for (file, names, reason) in EXCEPTIONS {
            assert!(!names.is_empty() && reason.len() > 20, "{file}");
            assert!(workspace_root().join(file).is_file(), "{file} is gone");
        }
    }
}
