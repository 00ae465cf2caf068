//! [`Command`]: a process builder over `std::process::Command` whose
//! `spawn` returns an asynchronous [`Child`].

use super::child::Child;
use super::imp::{before_spawn, ChildProcess, ChildStderr, ChildStdin, ChildStdout};
use crate::reactor::current_handle;
use std::ffi::OsStr;
use std::future::Future;
use std::io;
#[cfg(unix)]
use std::os::unix::process::CommandExt;
#[cfg(windows)]
use std::os::windows::process::CommandExt;
use std::path::Path;
use std::process::{Command as StdCommand, CommandArgs, CommandEnvs, ExitStatus, Output, Stdio};

/// Configures and spawns a child process; the asynchronous counterpart of
/// `std::process::Command`, with the same builder methods.
///
/// ```
/// use rt_io::process::Command;
///
/// # fn main() -> std::io::Result<()> {
/// # let rt = rt_core::runtime::Builder::new_current_thread()
/// #     .base_driver(rt_io::reactor::base_driver())
/// #     .build()?;
/// # rt.block_on(async {
/// let status = Command::new("sh")
///     .arg("-c")
///     .arg("test \"$GREETING\" = hi")
///     .env("GREETING", "hi")
///     .status()
///     .await?;
/// assert!(status.success());
/// # Ok(())
/// # })
/// # }
/// ```
#[derive(Debug)]
pub struct Command {
    std: StdCommand,
    kill_on_drop: bool,
}

impl Command {
    /// A command that runs `program` (looked up in `PATH` unless it is a
    /// path), with no arguments, the parent's environment and working
    /// directory, and inherited standard streams for `spawn` and `status`.
    pub fn new<S: AsRef<OsStr>>(program: S) -> Command {
        Command::from(StdCommand::new(program))
    }

    /// The underlying standard command.
    pub fn as_std(&self) -> &StdCommand {
        &self.std
    }

    /// The underlying standard command, for settings this type lacks.
    pub fn as_std_mut(&mut self) -> &mut StdCommand {
        &mut self.std
    }

    /// Returns the underlying standard command (`kill_on_drop` is lost).
    pub fn into_std(self) -> StdCommand {
        self.std
    }

    /// Appends one argument.
    pub fn arg<S: AsRef<OsStr>>(&mut self, arg: S) -> &mut Command {
        self.std.arg(arg);
        self
    }

    /// Appends several arguments.
    pub fn args<I, S>(&mut self, args: I) -> &mut Command
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        self.std.args(args);
        self
    }

    /// Sets one environment variable of the child.
    pub fn env<K, V>(&mut self, key: K, val: V) -> &mut Command
    where
        K: AsRef<OsStr>,
        V: AsRef<OsStr>,
    {
        self.std.env(key, val);
        self
    }

    /// Sets several environment variables of the child.
    pub fn envs<I, K, V>(&mut self, vars: I) -> &mut Command
    where
        I: IntoIterator<Item = (K, V)>,
        K: AsRef<OsStr>,
        V: AsRef<OsStr>,
    {
        self.std.envs(vars);
        self
    }

    /// Removes one variable from the child's environment.
    pub fn env_remove<K: AsRef<OsStr>>(&mut self, key: K) -> &mut Command {
        self.std.env_remove(key);
        self
    }

    /// Starts the child with an empty environment (plus what `env` adds).
    pub fn env_clear(&mut self) -> &mut Command {
        self.std.env_clear();
        self
    }

    /// Sets the child's working directory.
    pub fn current_dir<P: AsRef<Path>>(&mut self, dir: P) -> &mut Command {
        self.std.current_dir(dir);
        self
    }

    /// Configures the child's standard input; [`Stdio::piped`] makes
    /// [`Child::stdin`] a [`ChildStdin`].
    pub fn stdin<T: Into<Stdio>>(&mut self, cfg: T) -> &mut Command {
        self.std.stdin(cfg);
        self
    }

    /// Configures the child's standard output; [`Stdio::piped`] makes
    /// [`Child::stdout`] a [`ChildStdout`].
    pub fn stdout<T: Into<Stdio>>(&mut self, cfg: T) -> &mut Command {
        self.std.stdout(cfg);
        self
    }

    /// Configures the child's standard error; [`Stdio::piped`] makes
    /// [`Child::stderr`] a [`ChildStderr`].
    pub fn stderr<T: Into<Stdio>>(&mut self, cfg: T) -> &mut Command {
        self.std.stderr(cfg);
        self
    }

    /// Whether dropping the [`Child`] (or a `status`/`output` future) before
    /// the process exited sends it `SIGKILL`. Off by default: the process
    /// keeps running, and is reaped in the background once it exits.
    pub fn kill_on_drop(&mut self, kill_on_drop: bool) -> &mut Command {
        self.kill_on_drop = kill_on_drop;
        self
    }

    /// Whether [`kill_on_drop`](Self::kill_on_drop) is set.
    pub fn get_kill_on_drop(&self) -> bool {
        self.kill_on_drop
    }

    /// Runs the child with user id `id` (see `setuid`). Unix only.
    #[cfg(unix)]
    pub fn uid(&mut self, id: u32) -> &mut Command {
        self.std.uid(id);
        self
    }

    /// Runs the child with group id `id` (see `setgid`). Unix only.
    #[cfg(unix)]
    pub fn gid(&mut self, id: u32) -> &mut Command {
        self.std.gid(id);
        self
    }

    /// Sets the name the child sees as `argv[0]`, instead of the program.
    /// Unix only.
    #[cfg(unix)]
    pub fn arg0<S: AsRef<OsStr>>(&mut self, arg: S) -> &mut Command {
        self.std.arg0(arg);
        self
    }

    /// Puts the child in process group `pgroup`; 0 makes it the leader of a
    /// new group with its own pid as id. Unix only.
    #[cfg(unix)]
    pub fn process_group(&mut self, pgroup: i32) -> &mut Command {
        self.std.process_group(pgroup);
        self
    }

    /// Runs `f` in the child after `fork` and before `exec`.
    ///
    /// # Safety
    ///
    /// As `std::os::unix::process::CommandExt::pre_exec`: `f` runs in a
    /// copy of a possibly multi-threaded process, so it must only do what
    /// is async-signal-safe (no allocation, no locks another thread might
    /// have held at the fork).
    #[cfg(unix)]
    pub unsafe fn pre_exec<F>(&mut self, f: F) -> &mut Command
    where
        F: FnMut() -> io::Result<()> + Send + Sync + 'static,
    {
        // SAFETY: this function's own contract is the one `pre_exec`
        // requires; the caller upholds it.
        unsafe { self.std.pre_exec(f) };
        self
    }

    /// Sets the process creation flags (`CREATE_*`) passed to
    /// `CreateProcess`. Windows only.
    #[cfg(windows)]
    pub fn creation_flags(&mut self, flags: u32) -> &mut Command {
        self.std.creation_flags(flags);
        self
    }

    /// Appends an argument to the command line exactly as given, without
    /// the quoting [`arg`](Self::arg) applies. Windows only.
    #[cfg(windows)]
    pub fn raw_arg<S: AsRef<OsStr>>(&mut self, text: S) -> &mut Command {
        self.std.raw_arg(text);
        self
    }

    /// The program to run.
    pub fn get_program(&self) -> &OsStr {
        self.std.get_program()
    }

    /// The arguments, without the program.
    pub fn get_args(&self) -> CommandArgs<'_> {
        self.std.get_args()
    }

    /// The environment changes made on this command (`None` values are
    /// removals).
    pub fn get_envs(&self) -> CommandEnvs<'_> {
        self.std.get_envs()
    }

    /// The working directory, if one was set.
    pub fn get_current_dir(&self) -> Option<&Path> {
        self.std.get_current_dir()
    }

    /// Starts the process. Streams set to [`Stdio::piped`] appear as the
    /// [`Child`]'s `stdin`/`stdout`/`stderr`, registered with the current
    /// runtime's reactor.
    ///
    /// # Errors
    ///
    /// The OS error of starting the program: `NotFound` if it does not
    /// exist, `PermissionDenied` if it is not executable, and so on.
    ///
    /// # Panics
    ///
    /// Outside a runtime with I/O enabled, with the message sockets use.
    #[track_caller]
    pub fn spawn(&mut self) -> io::Result<Child> {
        self.spawn_with(std::process::Command::spawn)
    }

    /// Like [`spawn`](Self::spawn), but the standard child is started by
    /// `with`, given the configured standard command: for a platform's own
    /// way of spawning. Piped streams `with` leaves in the child are
    /// registered with the reactor as `spawn` does.
    ///
    /// # Errors
    ///
    /// The error `with` returns, or that of registering the pipes.
    ///
    /// # Panics
    ///
    /// As [`spawn`](Self::spawn).
    #[track_caller]
    pub fn spawn_with(
        &mut self,
        with: impl FnOnce(&mut std::process::Command) -> io::Result<std::process::Child>,
    ) -> io::Result<Child> {
        // Checked first so that a missing runtime is reported the same way
        // whether or not a stream is piped.
        drop(current_handle());
        before_spawn();
        let mut child = with(&mut self.std)?;
        let (stdin, stdout, stderr) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take());
        // From here on, an error drops `process`, which kills (if asked)
        // and reaps the child like a dropped `Child`.
        let process = ChildProcess::new(child, self.kill_on_drop);
        let stdin = stdin.map(ChildStdin::from_std).transpose()?;
        let stdout = stdout.map(ChildStdout::from_std).transpose()?;
        let stderr = stderr.map(ChildStderr::from_std).transpose()?;
        Ok(Child::new(process, stdin, stdout, stderr))
    }

    /// Spawns the process and waits for its exit status. The standard
    /// streams are inherited unless configured otherwise; piped ones are
    /// closed at once.
    ///
    /// The process is spawned by this call, not when the future is first
    /// polled.
    ///
    /// # Panics
    ///
    /// As [`spawn`](Self::spawn).
    #[track_caller]
    pub fn status(&mut self) -> impl Future<Output = io::Result<ExitStatus>> {
        let child = self.spawn();
        async move {
            let mut child = child?;
            // Nobody will read or write them: closing them keeps the child
            // from blocking on a full or empty pipe.
            drop(child.stdin.take());
            drop(child.stdout.take());
            drop(child.stderr.take());
            child.wait().await
        }
    }

    /// Spawns the process with stdout and stderr piped, and collects both
    /// along with the exit status. Stdin follows this command's setting
    /// (inherited by default).
    ///
    /// The process is spawned by this call, not when the future is first
    /// polled.
    ///
    /// # Panics
    ///
    /// As [`spawn`](Self::spawn).
    #[track_caller]
    pub fn output(&mut self) -> impl Future<Output = io::Result<Output>> {
        self.std.stdout(Stdio::piped());
        self.std.stderr(Stdio::piped());
        let child = self.spawn();
        async move { child?.wait_with_output().await }
    }
}

impl From<StdCommand> for Command {
    fn from(std: StdCommand) -> Command {
        Command {
            std,
            kill_on_drop: false,
        }
    }
}
