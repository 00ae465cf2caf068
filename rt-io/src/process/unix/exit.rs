//! `ChildProcess`: the running process behind a [`Child`](crate::process::Child),
//! and how its exit status is collected.
//!
//! The process is either running (its exit not yet collected) or done (the
//! status is cached and the pid may already belong to someone else, so it
//! is never signalled again). Waiting subscribes to `SIGCHLD` before the
//! first non-blocking `waitpid`, then checks again after every delivery.
//! Dropping a running process hands it to the orphan queue, after killing
//! it when `kill_on_drop` was asked for.

use super::orphan;
use crate::signal::unix::{signal, Signal, SignalKind};
use std::io;
use std::process::{Child as StdChild, ExitStatus};
use std::task::{ready, Context, Poll};

#[derive(Debug)]
enum State {
    Running(StdChild),
    Done(ExitStatus),
}

/// A spawned process until its exit status is collected.
#[derive(Debug)]
pub(crate) struct ChildProcess {
    state: State,
    kill_on_drop: bool,
    /// Created by the first `poll_wait` and kept across polls, so that a
    /// delivery between two polls is still seen.
    sigchld: Option<Signal>,
}

impl ChildProcess {
    /// Takes over `child`, whose standard stream handles were already
    /// taken out.
    pub(crate) fn new(child: StdChild, kill_on_drop: bool) -> ChildProcess {
        ChildProcess {
            state: State::Running(child),
            kill_on_drop,
            sigchld: None,
        }
    }

    /// The OS pid while the exit was not collected.
    pub(crate) fn id(&self) -> Option<u32> {
        match &self.state {
            State::Running(child) => Some(child.id()),
            State::Done(_) => None,
        }
    }

    /// Sends `SIGKILL` unless the exit was already collected; then there
    /// is nothing left to kill (and the pid may be someone else's), so it
    /// succeeds without signalling.
    pub(crate) fn start_kill(&mut self) -> io::Result<()> {
        match &mut self.state {
            State::Running(child) => child.kill(),
            State::Done(_) => Ok(()),
        }
    }

    /// Collects the exit status if the process has exited, without waiting.
    pub(crate) fn try_wait(&mut self) -> io::Result<Option<ExitStatus>> {
        orphan::reap_orphans_if_idle();
        match &mut self.state {
            State::Done(status) => Ok(Some(*status)),
            State::Running(child) => {
                let status = child.try_wait()?;
                if let Some(status) = status {
                    self.state = State::Done(status);
                    self.sigchld = None;
                }
                Ok(status)
            }
        }
    }

    /// `Ready` with the exit status once the process has exited; otherwise
    /// `cx` is woken by the next `SIGCHLD`.
    pub(crate) fn poll_wait(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<ExitStatus>> {
        if let State::Done(status) = self.state {
            return Poll::Ready(Ok(status));
        }
        if self.sigchld.is_none() {
            self.sigchld = Some(signal(SignalKind::child())?);
        }
        loop {
            if let Some(status) = self.try_wait()? {
                return Poll::Ready(Ok(status));
            }
            let sigchld = self.sigchld.as_mut().expect("listener set above");
            // A delivery since the last look: some child changed state,
            // perhaps this one. `poll_recv` spends coop budget, so this
            // loop yields under a storm of signals.
            ready!(sigchld.poll_recv(cx));
        }
    }
}

impl Drop for ChildProcess {
    fn drop(&mut self) {
        // The placeholder is never read: the value is being dropped.
        let placeholder = State::Done(ExitStatus::default());
        let State::Running(mut child) = std::mem::replace(&mut self.state, placeholder) else {
            return;
        };
        if self.kill_on_drop {
            // Fails only if the process is gone already; either way the
            // orphan queue collects it below.
            let _ = child.kill();
        }
        if let Ok(None) = child.try_wait() {
            orphan::adopt(child);
        }
    }
}
