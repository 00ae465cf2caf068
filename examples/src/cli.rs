//! What the example servers share: the `--smoke` and `--addr HOST:PORT`
//! options and their usage message, a watchdog that ends a self-check that
//! hangs instead of letting CI wait for it, and the real clients a smoke
//! run drives (finding them on `PATH`, running `wrk`, which the HTTP
//! benchmark uses too).

use std::io;
use std::process::Command;
use std::time::Duration;

/// The options of a network example.
#[derive(Debug)]
pub struct ServerArgs {
    /// Run the built-in self-check on a free loopback port, then exit.
    pub smoke: bool,
    /// Where to listen when serving for real.
    pub addr: String,
}

impl ServerArgs {
    /// Parses the process's arguments; anything but `--smoke` and
    /// `--addr HOST:PORT` ends the process with `program`'s usage line.
    pub fn parse(program: &str, default_addr: &str) -> ServerArgs {
        let mut args = ServerArgs {
            smoke: false,
            addr: default_addr.to_owned(),
        };
        let mut argv = std::env::args().skip(1);
        while let Some(arg) = argv.next() {
            match arg.as_str() {
                "--smoke" => args.smoke = true,
                "--addr" => match argv.next() {
                    Some(addr) => args.addr = addr,
                    None => usage(program, "--addr needs HOST:PORT"),
                },
                other => usage(program, &format!("unknown argument {other:?}")),
            }
        }
        args
    }
}

/// Prints `problem` and `program`'s usage line, and exits with status 2.
pub fn usage(program: &str, problem: &str) -> ! {
    eprintln!("{problem}\nusage: {program} [--smoke] [--addr HOST:PORT]");
    std::process::exit(2);
}

/// Ends the process with an error if it is still running after `limit`:
/// a smoke run that hangs fails instead of stalling CI. Called inside a
/// runtime, it first prints that runtime's task dump (each live task's
/// state, poll count and time since its last poll, and for an idle task
/// the chain of awaits it is parked at), which tells a task that waits for
/// an event apart from one that is scheduled but not run, and says which
/// event.
pub fn exit_if_stuck(limit: Duration) {
    let runtime = rt::runtime::Handle::try_current().ok();
    std::thread::spawn(move || {
        std::thread::sleep(limit);
        eprintln!("smoke: not finished after {limit:?}");
        if let Some(runtime) = runtime {
            eprintln!("{}", runtime.dump());
            let metrics = runtime.metrics();
            eprintln!("global queue: {}", metrics.global_queue_depth());
            for worker in 0..metrics.num_workers() {
                eprintln!(
                    "worker {worker}: local queue {}, {} polls, {} parks",
                    metrics.worker_local_queue_depth(worker),
                    metrics.worker_poll_count(worker),
                    metrics.worker_park_count(worker),
                );
            }
        }
        std::process::exit(1);
    });
}

/// Whether `program` is an executable file in one of `PATH`'s folders: a
/// smoke run uses real clients (curl, wrk, redis-cli) when they are there
/// and says so when they are not.
pub fn on_path(program: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|dir| dir.join(program).is_file()))
}

/// Loads `url` with `wrk` (2 threads, `connections` connections, two
/// seconds) on the blocking pool and returns its requests per second as
/// wrk printed them. Non-2xx answers, socket errors or anything on stderr
/// are an error.
pub async fn wrk_requests_per_second(url: String, connections: u32) -> io::Result<String> {
    let load = WrkLoad {
        threads: 2,
        connections,
        seconds: 2,
    };
    rt::task::spawn_blocking(move || run_wrk(&url, &load))
        .await
        .map_err(io::Error::other)?
}

/// The shape of a `wrk` run: its `-t`, `-c` and `-d` options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WrkLoad {
    /// Client threads (`-t`).
    pub threads: u32,
    /// Connections kept open, shared among the threads (`-c`).
    pub connections: u32,
    /// How long the load lasts, in whole seconds (`-d`).
    pub seconds: u32,
}

/// Runs `wrk` against `url` under `load`, blocking the calling thread until
/// it exits, and returns the `Requests/sec:` figure as wrk printed it.
/// Non-2xx answers, socket errors or anything on stderr are an
/// error: a server that fails requests must not look fast.
pub fn run_wrk(url: &str, load: &WrkLoad) -> io::Result<String> {
    let output = Command::new("wrk")
        .args([
            &format!("-t{}", load.threads),
            &format!("-c{}", load.connections),
            &format!("-d{}s", load.seconds),
            url,
        ])
        .output()?;
    let report = String::from_utf8_lossy(&output.stdout);
    let failed = !output.status.success()
        || report.contains("Non-2xx")
        || report.contains("Socket errors")
        || !output.stderr.is_empty();
    if failed {
        return Err(io::Error::other(format!(
            "wrk reported problems:\n{report}\n{}",
            String::from_utf8_lossy(&output.stderr)
        )));
    }
    report
        .lines()
        .find(|l| l.starts_with("Requests/sec:"))
        .map(|l| l.trim_start_matches("Requests/sec:").trim().to_owned())
        .ok_or_else(|| io::Error::other(format!("wrk printed no rate:\n{report}")))
}
