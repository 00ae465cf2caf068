//! [`Child`]: a spawned process, its piped standard streams, and the
//! operations that wait for, poll or kill it.

use super::imp::{ChildProcess, ChildStderr, ChildStdin, ChildStdout};
use super::join::join3;
use crate::io::{AsyncRead, AsyncReadExt};
use std::future::poll_fn;
use std::io;
use std::process::{ExitStatus, Output};

/// A child process spawned by [`Command::spawn`](super::Command::spawn).
///
/// Dropping a `Child` does not stop the process (unless
/// [`kill_on_drop`](super::Command::kill_on_drop) was set): it keeps
/// running, and its exit status is collected in the background once it
/// exits, so it does not linger as a zombie.
///
/// ```
/// use rt_io::io::AsyncReadExt;
/// use rt_io::process::Command;
/// use std::process::Stdio;
///
/// # fn main() -> std::io::Result<()> {
/// # let rt = rt_core::runtime::Builder::new_current_thread()
/// #     .base_driver(rt_io::reactor::base_driver())
/// #     .build()?;
/// # rt.block_on(async {
/// let mut child = Command::new("sh")
///     .args(["-c", "echo out; exit 3"])
///     .stdout(Stdio::piped())
///     .spawn()?;
/// let mut out = String::new();
/// child.stdout.take().unwrap().read_to_string(&mut out).await?;
/// let status = child.wait().await?;
/// assert_eq!(out, "out\n");
/// assert_eq!(status.code(), Some(3));
/// # Ok(())
/// # })
/// # }
/// ```
#[derive(Debug)]
pub struct Child {
    /// The writing end of the child's standard input, if it was piped.
    pub stdin: Option<ChildStdin>,
    /// The reading end of the child's standard output, if it was piped.
    pub stdout: Option<ChildStdout>,
    /// The reading end of the child's standard error, if it was piped.
    pub stderr: Option<ChildStderr>,
    process: ChildProcess,
}

impl Child {
    pub(super) fn new(
        process: ChildProcess,
        stdin: Option<ChildStdin>,
        stdout: Option<ChildStdout>,
        stderr: Option<ChildStderr>,
    ) -> Child {
        Child {
            stdin,
            stdout,
            stderr,
            process,
        }
    }

    /// The OS process id, or `None` once the exit status was collected (the
    /// id may then belong to another process).
    pub fn id(&self) -> Option<u32> {
        self.process.id()
    }

    /// Sends `SIGKILL` without waiting for the process to exit. Once the
    /// exit status was collected this does nothing and succeeds.
    ///
    /// # Errors
    ///
    /// The OS error of `kill`.
    pub fn start_kill(&mut self) -> io::Result<()> {
        self.process.start_kill()
    }

    /// Sends `SIGKILL` and waits for the process to exit.
    ///
    /// # Errors
    ///
    /// As [`start_kill`](Self::start_kill) and [`wait`](Self::wait).
    pub async fn kill(&mut self) -> io::Result<()> {
        self.start_kill()?;
        self.wait().await.map(drop)
    }

    /// Waits for the process to exit and returns its status.
    ///
    /// The child's standard input is closed first (the handle in
    /// [`stdin`](Self::stdin) is dropped), so a child reading it until end
    /// of file can finish. Calling `wait` again returns the same status.
    ///
    /// # Cancel safety
    ///
    /// Cancel-safe: dropping the future loses nothing, and a later call
    /// picks up where it stopped.
    pub async fn wait(&mut self) -> io::Result<ExitStatus> {
        drop(self.stdin.take());
        poll_fn(|cx| self.process.poll_wait(cx)).await
    }

    /// Returns the exit status if the process has exited, without waiting.
    pub fn try_wait(&mut self) -> io::Result<Option<ExitStatus>> {
        self.process.try_wait()
    }

    /// Waits for the process to exit while reading its piped stdout and
    /// stderr to the end; streams that were not piped give empty output.
    ///
    /// Standard input is closed first, as in [`wait`](Self::wait).
    pub async fn wait_with_output(mut self) -> io::Result<Output> {
        let mut stdout_pipe = self.stdout.take();
        let mut stderr_pipe = self.stderr.take();
        let (status, stdout, stderr) = join3(
            self.wait(),
            read_all(stdout_pipe.as_mut()),
            read_all(stderr_pipe.as_mut()),
        )
        .await;
        Ok(Output {
            status: status?,
            stdout: stdout?,
            stderr: stderr?,
        })
    }
}

/// Everything `pipe` yields until end of file; nothing if there is no pipe.
async fn read_all<R: AsyncRead + Unpin>(pipe: Option<&mut R>) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    if let Some(pipe) = pipe {
        pipe.read_to_end(&mut bytes).await?;
    }
    Ok(bytes)
}
