//! A replicated key-value store with a replication bug, found by a seed
//! sweep and replayed from its seed.
//!
//! The store speaks RESP (the `kv` example's parser and replies). A
//! primary takes `SET` and `GET` from clients and copies each `SET` to two
//! backups over `rt::net` TCP. The bug: the primary acknowledges a write
//! as soon as it has handed it to its replication tasks, before a backup
//! has it. On a clean network the copy lands a millisecond later and
//! nobody notices; when a partition cuts the primary from a backup, or
//! the primary crashes in that millisecond, an acknowledged write is
//! missing from the backup that a failover would promote.
//!
//! The client writes a counter, and after each acknowledged write waits
//! and reads it back from the first backup; a stale value is the bug. The
//! hosts, the network and the faults are all simulated and drawn from the
//! seed, and nothing in the store's code knows it.
//!
//! ```text
//! cargo run -p rt-sim --example replicated_kv                 # seed 1: passes
//! cargo run -p rt-sim --example replicated_kv -- --sweep 200  # lists failing seeds
//! RT_SIM_SEED=<seed> cargo run -p rt-sim --example replicated_kv  # replays one
//! ```

#[path = "../../../examples/examples/kv/resp.rs"]
#[allow(dead_code)]
mod resp;
mod store;

use rt_io::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use rt_io::net::TcpStream;
use rt_sim::{FaultSchedule, Latency, LinkConfig, Sim, SimError};
use std::time::Duration;

/// The writes the client makes.
const WRITES: u64 = 30;
/// How long the client gives replication before it checks a backup: far
/// longer than a copy takes on a clean link.
const SETTLE: Duration = Duration::from_millis(300);
/// Trace events printed before the failure when a run fails.
const TRACE_CONTEXT: usize = 25;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [flag, seeds] = args.as_slice() {
        if flag == "--sweep" {
            let seeds: u64 = seeds.parse().expect("--sweep takes a number of seeds");
            let jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
            let report = rt_sim::sweep("replicated_kv", 0..seeds, jobs).expect("sweep");
            println!(
                "{} seeds, {} failed: {:?}",
                report.ran,
                report.failed.len(),
                report.failed
            );
            if let Some(replay) = report.replay.first() {
                println!("replay the first: {replay}");
            }
            return;
        }
    }
    // Also how `sweep` runs each seed: the arguments it passes are ignored.
    match scenario(1).run() {
        Ok(report) => println!(
            "seed {}: no write lost (trace hash {:016x})",
            report.seed, report.hash
        ),
        Err(error) => {
            if let SimError::Failed { report, .. } = &error {
                let from = report.events.len().saturating_sub(TRACE_CONTEXT);
                eprintln!("the trace before the failure:");
                for event in &report.events[from..] {
                    eprintln!("  {:>12?}  {}", event.at, event.what);
                }
            }
            std::process::exit(1);
        }
    }
}

/// The store on three hosts, a client, a jittery network and the seeded
/// fault schedule.
fn scenario(seed: u64) -> Sim {
    let mut sim = Sim::builder()
        .seed(seed)
        .keep_trace(true)
        .link(LinkConfig {
            latency: Latency::Uniform {
                min: Duration::from_micros(300),
                max: Duration::from_millis(3),
            },
            ..LinkConfig::default()
        })
        .faults(FaultSchedule {
            pause: (Duration::from_secs(1), Duration::from_secs(6)),
            duration: (Duration::from_millis(100), Duration::from_secs(1)),
            ..FaultSchedule::default()
        })
        .build();
    sim.host("primary", || {
        store::primary(&["backup1:6379", "backup2:6379"])
    });
    sim.host("backup1", store::backup);
    sim.host("backup2", store::backup);
    sim.client("client", async {
        for n in 1..=WRITES {
            let value = n.to_string();
            // The primary may be down or cut off: try again until it
            // acknowledges.
            while request("primary:6379", &["SET", "counter", &value]).await.is_err() {
                rt_time::sleep(Duration::from_millis(100)).await;
            }
            rt_time::sleep(SETTLE).await;
            // A backup that cannot be reached proves nothing; one that
            // answers must have every acknowledged write.
            if let Ok(Some(seen)) = request("backup1:6379", &["GET", "counter"]).await {
                let seen: u64 = String::from_utf8_lossy(&seen).parse().unwrap_or(0);
                assert!(
                    seen >= n,
                    "an acknowledged write is lost: the primary acknowledged counter = {n}, backup1 has {seen}"
                );
            }
        }
        Ok(())
    });
    sim
}

/// Sends one command to `addr` and reads its reply: `Some(bytes)` for a
/// bulk string or a status, `None` for nil. Gives up after a second.
async fn request(addr: &str, words: &[&str]) -> std::io::Result<Option<Vec<u8>>> {
    let exchange = async {
        let mut stream = TcpStream::connect(addr).await?;
        stream.write_all(&store::encode(words)).await?;
        let mut reader = BufReader::new(stream);
        let mut line = String::new();
        reader.read_line(&mut line).await?;
        let line = line.trim_end();
        match line.as_bytes().first() {
            Some(b'+') => Ok(Some(line.as_bytes()[1..].to_vec())),
            Some(b'$') if line == "$-1" => Ok(None),
            Some(b'$') => {
                let len: usize = line[1..].parse().map_err(std::io::Error::other)?;
                let mut bulk = vec![0; len + 2];
                reader.read_exact(&mut bulk).await?;
                bulk.truncate(len);
                Ok(Some(bulk))
            }
            _ => Err(std::io::Error::other(format!("unexpected reply {line:?}"))),
        }
    };
    rt_time::timeout(Duration::from_secs(1), exchange)
        .await
        .unwrap_or_else(|_| Err(std::io::ErrorKind::TimedOut.into()))
}
