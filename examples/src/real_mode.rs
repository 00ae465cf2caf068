//! The smoke runs' check of a server's real mode, the one a user starts:
//! the example runs itself again as a child process on a free loopback
//! port, a client talks to it, the child gets a real `SIGINT` (what Ctrl-C
//! in its terminal sends) from `kill -INT`, and the check reads the
//! child's output line by line to see it stop accepting, drain its
//! connections and exit with status 0.
//!
//! Every wait is bounded, and a child left behind by a failed check is
//! killed when its [`RealServer`] is dropped.

use crate::server::{
    draining_line, interrupted_line, listening_line, stopped_line, Drained, GRACE,
};
use rt::codec::{FramedRead, LinesCodec};
use rt::io::{AsyncReadExt, AsyncWriteExt};
use rt::net::TcpStream;
use rt::process::{Child, ChildStdout, Command};
use rt::stream::StreamExt;
use std::io;
use std::net::SocketAddr;
use std::process::Stdio;
use std::time::Duration;

/// The longest any one step may take. It outlasts the grace period, so a
/// drain that runs out shows as an unexpected line rather than a hang.
const STEP: Duration = GRACE.saturating_add(Duration::from_secs(5));

/// Longest output line accepted from the child.
const MAX_LINE: usize = 4096;

/// This program running as a server in its real mode, in a child process.
#[derive(Debug)]
pub struct RealServer {
    name: String,
    child: Child,
    output: FramedRead<ChildStdout, LinesCodec>,
    addr: SocketAddr,
}

impl RealServer {
    /// Starts the running program again, as `NAME --addr 127.0.0.1:0
    /// ARGS...` with its standard output piped here, and waits until it
    /// prints that it listens (lines before that are only shown). `name` is
    /// the prefix of the server's lines.
    pub async fn start(name: &str, args: &[&str]) -> io::Result<RealServer> {
        let mut child = Command::new(std::env::current_exe()?)
            .args(["--addr", "127.0.0.1:0"])
            .args(args)
            .stdout(Stdio::piped())
            .kill_on_drop(true)
            .spawn()?;
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| io::Error::other("the child's stdout is not piped"))?;
        let mut output = FramedRead::new(stdout, LinesCodec::new_with_max_length(MAX_LINE));
        // A server may say something about its setup first.
        let mut line = next_line(name, &mut output).await?;
        while !line.starts_with(&format!("{name}: listening on ")) {
            line = next_line(name, &mut output).await?;
        }
        let addr = line
            .split("listening on ")
            .nth(1)
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|addr| addr.parse().ok())
            .filter(|&addr| line == listening_line(name, addr))
            .ok_or_else(|| unexpected(name, "its listening line", &line))?;
        Ok(RealServer {
            name: name.to_owned(),
            child,
            output,
            addr,
        })
    }

    /// Where the server listens.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Sends the server `SIGINT` with `kill -INT PID`, and waits until it
    /// says it stopped accepting with `open` connections left to drain:
    /// from then on, those are in its grace period.
    pub async fn interrupt(&mut self, open: usize) -> io::Result<()> {
        let pid = self
            .child
            .id()
            .ok_or_else(|| io::Error::other(format!("{} exited before Ctrl-C", self.name)))?;
        let status = Command::new("kill")
            .args(["-INT", &pid.to_string()])
            .status()
            .await?;
        if !status.success() {
            return Err(io::Error::other(format!("kill -INT {pid}: {status}")));
        }
        self.expect_line(&interrupted_line(&self.name)).await?;
        self.expect_line(&draining_line(&self.name, open)).await
    }

    /// Waits for the server's last line, which must report `finished`
    /// connections ended within the grace period and none aborted, and for
    /// its exit, which must be a success.
    pub async fn stopped(mut self, finished: usize) -> io::Result<()> {
        let drained = Drained {
            finished,
            aborted: 0,
        };
        self.expect_line(&stopped_line(&self.name, drained)).await?;
        let status = rt::time::timeout(STEP, self.child.wait())
            .await
            .map_err(|_| io::Error::other(format!("{} did not exit", self.name)))??;
        if !status.success() {
            return Err(io::Error::other(format!(
                "{} exited with {status}",
                self.name
            )));
        }
        Ok(())
    }

    /// Reads the server's next line, which must be `expected`.
    async fn expect_line(&mut self, expected: &str) -> io::Result<()> {
        let line = next_line(&self.name, &mut self.output).await?;
        if line != expected {
            return Err(unexpected(&self.name, &format!("{expected:?}"), &line));
        }
        Ok(())
    }
}

/// The child's next output line, shown indented in the smoke run's own
/// output as well.
async fn next_line(
    name: &str,
    output: &mut FramedRead<ChildStdout, LinesCodec>,
) -> io::Result<String> {
    match rt::time::timeout(STEP, output.next()).await {
        Err(_) => Err(io::Error::other(format!(
            "{name} printed nothing for {STEP:?}"
        ))),
        Ok(None) => Err(io::Error::new(
            io::ErrorKind::UnexpectedEof,
            format!("{name} closed its output early"),
        )),
        Ok(Some(Err(e))) => Err(io::Error::other(e)),
        Ok(Some(Ok(line))) => {
            println!("  | {line}");
            Ok(line)
        }
    }
}

fn unexpected(name: &str, wanted: &str, line: &str) -> io::Error {
    io::Error::other(format!("{name}: expected {wanted}, got {line:?}"))
}

/// Writes `request` to `stream` in one go and reads exactly `expected`
/// back.
pub async fn exchange(stream: &mut TcpStream, request: &[u8], expected: &[u8]) -> io::Result<()> {
    stream.write_all(request).await?;
    let mut reply = vec![0u8; expected.len()];
    stream.read_exact(&mut reply).await?;
    if reply != expected {
        return Err(io::Error::other(format!(
            "expected {:?}, got {:?}",
            String::from_utf8_lossy(expected),
            String::from_utf8_lossy(&reply)
        )));
    }
    Ok(())
}

/// Reads from `stream` until the server closes it, which must happen
/// without any more bytes and within the step limit.
pub async fn expect_closed(stream: &mut TcpStream) -> io::Result<()> {
    let mut rest = Vec::new();
    rt::time::timeout(STEP, stream.read_to_end(&mut rest))
        .await
        .map_err(|_| io::Error::other("the server kept the connection open"))??;
    if !rest.is_empty() {
        return Err(io::Error::other(format!(
            "unexpected bytes before the close: {:?}",
            String::from_utf8_lossy(&rest)
        )));
    }
    Ok(())
}
