//! Test executables built by `cargo test --no-run`, read from cargo's JSON
//! messages, so that xtask can run each one itself: under a deadline, or
//! under valgrind.
//!
//! xtask has no dependencies, so the few fields it needs are read from each
//! JSON line by hand; cargo writes one flat-enough object per line, and
//! every field read here is a string that occurs once per message (`name`
//! first occurs inside `target`).

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::cargo::{cargo_stdout, workspace_root};

/// One test executable and what running it the way cargo does needs.
#[derive(Debug, Clone)]
pub struct TestBinary {
    /// The package's name, e.g. `rt-core`.
    pub package: String,
    /// The target's name, e.g. `spawn_join`; `lib` for a library's unit
    /// tests.
    pub target: String,
    /// The executable.
    pub path: PathBuf,
    /// The package's directory: cargo runs tests there.
    pub manifest_dir: PathBuf,
}

impl TestBinary {
    /// `package/target`, how xtask names a binary in its output and in
    /// its lists.
    pub fn label(&self) -> String {
        format!("{}/{}", self.package, self.target)
    }

    /// A command that runs the binary as `cargo test` would: from the
    /// package's directory, with the variables that tests read at run time
    /// (trybuild reads `CARGO_MANIFEST_DIR` and `CARGO`). With a `wrapper`
    /// (`["valgrind", "--tool=memcheck", ...]`), the wrapper runs it.
    pub fn command(&self, wrapper: &[String]) -> Command {
        let mut command = match wrapper.split_first() {
            Some((program, args)) => {
                let mut command = Command::new(program);
                command.args(args).arg(&self.path);
                command
            }
            None => Command::new(&self.path),
        };
        command
            .current_dir(&self.manifest_dir)
            .env("CARGO_MANIFEST_DIR", &self.manifest_dir)
            .env("CARGO_PKG_NAME", &self.package)
            .env(
                "CARGO",
                std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()),
            );
        command
    }
}

/// Builds the test executables that `cargo test ARGS` would run and lists
/// them, in cargo's build order. `args` select them as for `cargo test`
/// (`--workspace`, `-p CRATE`, `--release`, ...); `envs` apply to the
/// build (`RUSTFLAGS`).
pub fn build(args: &[&str], envs: &[(&str, &str)]) -> Result<Vec<TestBinary>, String> {
    let mut all_args = vec![
        "test",
        "--no-run",
        "--message-format=json-render-diagnostics",
    ];
    all_args.extend_from_slice(args);
    println!("xtask: cargo {}", all_args.join(" "));
    let stdout = cargo_stdout(&workspace_root(), &all_args, envs)?;
    Ok(stdout.lines().filter_map(parse_artifact).collect())
}

/// The test executable a `compiler-artifact` message announces, if any.
pub fn parse_artifact(line: &str) -> Option<TestBinary> {
    // A test build has `"test":true` in its profile; bins built for
    // integration tests have an executable too, but not that.
    let profile = line.split("\"profile\":{").nth(1)?.split('}').next()?;
    if string_field(line, "reason")? != "compiler-artifact" || !profile.contains("\"test\":true") {
        return None;
    }
    let path = PathBuf::from(string_field(line, "executable")?);
    let manifest = PathBuf::from(string_field(line, "manifest_path")?);
    let manifest_dir = manifest.parent().unwrap_or(Path::new(".")).to_path_buf();
    let kind = string_field(line, "kind\":[")?;
    let target = if kind == "lib" || kind == "proc-macro" {
        "lib".to_string()
    } else {
        string_field(line, "name")?
    };
    Some(TestBinary {
        package: package_name(&string_field(line, "package_id")?)?,
        target,
        path,
        manifest_dir,
    })
}

/// The package name in a package id: `path+file:///x/rt-core#0.1.0` (the
/// name is the directory's) or `path+file:///x#rt@0.1.0`.
fn package_name(id: &str) -> Option<String> {
    let (url, fragment) = id.rsplit_once('#')?;
    match fragment.split_once('@') {
        Some((name, _version)) => Some(name.to_string()),
        None => url.rsplit('/').next().map(str::to_string),
    }
}

/// The string value of the first `"key":"..."` in `line` (`key` may end in
/// `":[` to take an array's first string), with JSON escapes undone.
pub fn string_field(line: &str, key: &str) -> Option<String> {
    let opener = if key.ends_with('[') {
        format!("\"{key}\"")
    } else {
        format!("\"{key}\":\"")
    };
    let start = line.find(&opener)? + opener.len();
    let mut value = String::new();
    let mut chars = line[start..].chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => return Some(value),
            '\\' => match chars.next()? {
                'n' => value.push('\n'),
                't' => value.push('\t'),
                other => value.push(other),
            },
            c => value.push(c),
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEST: &str = r#"{"reason":"compiler-artifact","package_id":"path+file:///w/rt-time#0.1.0","manifest_path":"/w/rt-time/Cargo.toml","target":{"kind":["test"],"crate_types":["bin"],"name":"interval","src_path":"/w/rt-time/tests/interval.rs","test":true},"profile":{"opt_level":"0","test":true},"features":[],"filenames":["/w/target/debug/deps/interval-e8"],"executable":"/w/target/debug/deps/interval-e8","fresh":true}"#;

    #[test]
    fn a_test_artifact_is_read() {
        let binary = parse_artifact(TEST).unwrap();
        assert_eq!(binary.label(), "rt-time/interval");
        assert_eq!(
            binary.path,
            PathBuf::from("/w/target/debug/deps/interval-e8")
        );
        assert_eq!(binary.manifest_dir, PathBuf::from("/w/rt-time"));
    }

    #[test]
    fn library_tests_and_named_packages() {
        let line = TEST
            .replace("rt-time#0.1.0", "x#rt@0.1.0")
            .replace(r#"["test"]"#, r#"["lib"]"#);
        assert_eq!(parse_artifact(&line).unwrap().label(), "rt/lib");
    }

    #[test]
    fn other_messages_are_not_test_binaries() {
        let bin = TEST.replace(
            r#""opt_level":"0","test":true"#,
            r#""opt_level":"0","test":false"#,
        );
        assert!(parse_artifact(&bin).is_none());
        assert!(parse_artifact(r#"{"reason":"build-finished","success":true}"#).is_none());
    }

    #[test]
    fn escapes_are_undone() {
        assert_eq!(
            string_field(r#"{"a":"x\"y\\z"}"#, "a").as_deref(),
            Some(r#"x"y\z"#)
        );
    }
}
