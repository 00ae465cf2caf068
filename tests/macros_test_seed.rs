//! An unseeded `#[rt::test]` runs with a seed, prints it when it fails, and
//! `RT_SEED=N` replays the same random choices; a malformed `RT_SEED` fails
//! the test with a message naming the variable and the value.

use std::process::Command;

/// Fails on purpose, after printing which branches `select!` picked. Run
/// only as a child process by the test below.
#[rt::test]
#[ignore = "fails on purpose; driven by replaying_a_failure_with_rt_seed"]
async fn failing_probe() {
    let mut picks = Vec::new();
    for _ in 0..32 {
        picks.push(rt::select! {
            v = async { 0 } => v,
            v = async { 1 } => v,
            v = async { 2 } => v,
        });
    }
    println!("picks: {picks:?}");
    panic!("probe failed on purpose");
}

fn run_probe(seed: Option<&str>) -> (String, String) {
    let mut command = Command::new(std::env::current_exe().unwrap());
    command.args([
        "--ignored",
        "--exact",
        "failing_probe",
        "--nocapture",
        "--test-threads=1",
    ]);
    command.env_remove("RT_SEED");
    if let Some(seed) = seed {
        command.env("RT_SEED", seed);
    }
    let out = command.output().unwrap();
    assert!(!out.status.success(), "the probe fails");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn picks(stdout: &str) -> String {
    let start = stdout.find("picks:").expect("the probe printed its picks");
    stdout[start..]
        .lines()
        .next()
        .unwrap_or_default()
        .to_string()
}

#[test]
fn replaying_a_failure_with_rt_seed() {
    let (stdout, stderr) = run_probe(None);
    let seed = stderr
        .split("ran with seed ")
        .nth(1)
        .and_then(|rest| rest.split(';').next())
        .expect("a failing test prints its seed")
        .to_string();
    let (replay_out, replay_err) = run_probe(Some(&seed));
    assert!(replay_err.contains(&format!("ran with seed {seed};")));
    assert_eq!(
        picks(&stdout),
        picks(&replay_out),
        "same seed, same choices"
    );
}

#[test]
fn a_malformed_rt_seed_fails_the_test_naming_it() {
    let (stdout, stderr) = run_probe(Some("12ab"));
    assert!(
        stderr.contains("RT_SEED must be an unsigned 64-bit integer, got \"12ab\""),
        "{stderr}"
    );
    assert!(!stdout.contains("picks:"), "the body never ran");
}
