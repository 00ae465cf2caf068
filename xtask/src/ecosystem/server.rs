//! One of the fixture's servers (`ecosystem serve` or `ecosystem kv`) as a
//! child process for an outside load generator: started, its address read
//! from its first line, and stopped by closing its standard input, which
//! starts its graceful shutdown.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use super::bench::Sample;
use super::Runtime;

/// A running server process.
pub struct Server {
    child: Child,
    runtime: Runtime,
    /// Where it listens, `IP:PORT`.
    pub addr: String,
}

impl Server {
    /// Starts `ecosystem COMMAND --workers WORKERS` built on `runtime`.
    pub fn start(runtime: Runtime, command: &str, workers: usize) -> Result<Server, String> {
        let mut child = Command::new(runtime.binary())
            .args([command, "--workers", &workers.to_string()])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| format!("starting `ecosystem {command}` on {}: {e}", runtime.name()))?;
        let mut first = String::new();
        let read = match child.stdout.take() {
            Some(stdout) => BufReader::new(stdout)
                .read_line(&mut first)
                .map_err(|e| e.to_string()),
            None => Err("stdout was not piped".to_string()),
        };
        let addr = read.and_then(|_| {
            first
                .trim()
                .strip_prefix("listening on ")
                .map(str::to_string)
                .ok_or_else(|| format!("the server printed {first:?}, not its address"))
        });
        let mut server = Server {
            child,
            runtime,
            addr: String::new(),
        };
        match addr {
            Ok(addr) => {
                server.addr = addr;
                Ok(server)
            }
            Err(e) => {
                let _ = server.stop();
                Err(e)
            }
        }
    }

    /// Runs `load` against the server and fills in the sample it returns
    /// with the server's CPU time over the load's run divided by the
    /// number of requests the load reports having made.
    pub fn under_load(
        &self,
        load: impl FnOnce() -> Result<(Sample, u64), String>,
    ) -> Result<Sample, String> {
        let cpu_before = self.cpu_seconds();
        let (mut sample, requests) = load()?;
        let cpu = self.cpu_seconds() - cpu_before;
        sample.cpu_us_per_op = cpu * 1e6 / requests.max(1) as f64;
        Ok(sample)
    }

    /// The CPU time the server has used so far, user and system together,
    /// in seconds: fields 14 and 15 of its /proc/PID/stat, counted in
    /// Linux's USER_HZ (100 a second). NaN where /proc cannot be read.
    fn cpu_seconds(&self) -> f64 {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.child.id()));
        let ticks = stat.ok().and_then(|stat| {
            // The command name (field 2) is in brackets and may hold
            // spaces; the fields after it are plain numbers, the state
            // (field 3) first.
            let after_name = &stat[stat.rfind(')')? + 1..];
            let mut fields = after_name.split_whitespace().skip(11);
            let user: u64 = fields.next()?.parse().ok()?;
            let system: u64 = fields.next()?.parse().ok()?;
            Some(user + system)
        });
        ticks.map_or(f64::NAN, |t| t as f64 / 100.0)
    }

    /// The port it listens on.
    pub fn port(&self) -> &str {
        self.addr.rsplit(':').next().unwrap_or("")
    }

    /// Closes its standard input and waits up to 10 s for a clean exit.
    pub fn stop(mut self) -> Result<(), String> {
        let name = self.runtime.name();
        drop(self.child.stdin.take());
        let started = Instant::now();
        while started.elapsed() < Duration::from_secs(10) {
            if let Some(status) = self.child.try_wait().map_err(|e| e.to_string())? {
                return if status.success() {
                    Ok(())
                } else {
                    Err(format!("the {name} server exited with {status}"))
                };
            }
            thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        Err(format!("the {name} server did not shut down within 10 s"))
    }
}
