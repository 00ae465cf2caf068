//! A tokio application built from the ecosystem's crates, run by
//! `cargo xtask ecosystem` on real tokio and on rt patched in under
//! tokio's name.
//!
//! * `ecosystem [smoke]`: every check once; exits 0 only if every answer
//!   was right, and otherwise names each check that went wrong and how.
//! * `ecosystem bench [--quick] [--only NAME[,NAME...]]`: the timed
//!   workloads (or only those named), one `result` line each;
//!   `ecosystem bench --list` names them.
//! * `ecosystem serve`: the axum application on a loopback port, printed
//!   as `listening on ADDR`, until standard input closes (for wrk).
//! * `ecosystem kv`: a RESP key-value server, the same way (for
//!   redis-benchmark).
//! * `ecosystem sim`: the axum application and a reqwest client as hosts of
//!   a deterministic simulation, with a partition, a timeout and a retry,
//!   run twice with the same seed (rt build with the `sim` feature only).
//!
//! `--workers N` sets the multi-thread runtime's worker count (2 by
//! default). A watchdog ends any run that does not stop by itself. The
//! runtime is built with `tokio::runtime::Builder`, not `#[tokio::main]`,
//! so that the program does not depend on the attribute's expansion.

use std::io::Read;
use std::process::exit;
use std::time::Duration;

mod bench;
mod clients;
mod framed;
mod kv;
mod server;
#[cfg(feature = "sim")]
mod sim;
mod smoke;
mod watchdog;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let workers = match args.iter().position(|a| a == "--workers") {
        Some(i) => match args.get(i + 1).and_then(|n| n.parse::<usize>().ok()) {
            Some(n) if n > 0 => n,
            _ => usage("--workers takes a positive number"),
        },
        None => 2,
    };
    let quick = args.iter().any(|a| a == "--quick");
    let only: Vec<String> = match args.iter().position(|a| a == "--only") {
        Some(i) => match args.get(i + 1) {
            Some(names) => names.split(',').map(str::to_string).collect(),
            None => usage("--only takes workload names, separated by commas"),
        },
        None => Vec::new(),
    };
    let command = args
        .first()
        .map(String::as_str)
        .filter(|a| !a.starts_with("--"));
    let result = match command {
        None | Some("smoke") => {
            watchdog::start("smoke", Duration::from_secs(60));
            smoke::run(workers)
        }
        Some("bench") if args.iter().any(|a| a == "--list") => {
            bench::WORKLOADS.iter().for_each(|name| println!("{name}"));
            Ok(())
        }
        Some("bench") => {
            watchdog::start("bench", Duration::from_secs(300));
            bench::run(workers, if quick { 20 } else { 1 }, &only)
        }
        Some(name @ ("serve" | "kv")) => {
            watchdog::start("server", Duration::from_secs(600));
            serve(workers, name == "kv")
        }
        Some("sim") => {
            watchdog::start("sim", Duration::from_secs(60));
            simulate()
        }
        Some(other) => usage(&format!("unknown command `{other}`")),
    };
    if let Err(message) = result {
        eprintln!("ecosystem: {message}");
        exit(1);
    }
}

fn usage(problem: &str) -> ! {
    eprintln!(
        "ecosystem: {problem}\nusage: ecosystem [smoke | bench [--quick] [--only NAMES | --list] | serve | kv | sim] [--workers N]"
    );
    exit(2);
}

/// The simulation check, where the build has it.
fn simulate() -> Result<(), String> {
    #[cfg(feature = "sim")]
    return sim::run();
    #[cfg(not(feature = "sim"))]
    Err("`sim` needs the rt build with the `sim` feature (`cargo xtask ecosystem`)".to_string())
}

/// A multi-thread runtime of `workers` threads with I/O and time enabled.
pub fn multi_thread(workers: usize) -> Result<tokio::runtime::Runtime, String> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(workers)
        .enable_all()
        .build()
        .map_err(|e| format!("building the multi-thread runtime: {e}"))
}

/// Serves the axum application (or with `kv` the RESP server) until
/// standard input reaches its end, then shuts down gracefully.
fn serve(workers: usize, kv: bool) -> Result<(), String> {
    let runtime = multi_thread(workers)?;
    runtime.block_on(async {
        let token = tokio_util::sync::CancellationToken::new();
        let stop = token.clone();
        std::thread::spawn(move || {
            let mut sink = Vec::new();
            let _ = std::io::stdin().read_to_end(&mut sink);
            stop.cancel();
        });
        if kv {
            return kv::serve(token)
                .await
                .map_err(|e| format!("kv server: {e}"));
        }
        let server = server::start_axum(server::app(Default::default()))
            .await
            .map_err(|e| format!("starting axum: {e}"))?;
        println!("listening on {}", server.addr);
        token.cancelled().await;
        server.token.cancel();
        server
            .task
            .await
            .map_err(|e| format!("server task: {e}"))?
            .map_err(|e| format!("server: {e}"))
    })
}
