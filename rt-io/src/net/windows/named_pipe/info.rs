//! What `GetNamedPipeInfo` reports about a pipe: [`PipeInfo`], with the
//! [`PipeMode`] and [`PipeEnd`] it is made of.

use std::io;
use std::os::windows::io::RawHandle;
use windows_sys::Win32::System::Pipes::{GetNamedPipeInfo, PIPE_SERVER_END, PIPE_TYPE_MESSAGE};

/// How a pipe carries data.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum PipeMode {
    /// A stream of bytes: writes may be split or joined by reads.
    Byte,
    /// A sequence of messages: each write is one message, and a read
    /// returns at most one.
    Message,
}

/// Which end of a pipe a handle is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum PipeEnd {
    /// The end that opened an existing instance.
    Client,
    /// The end that created the instance.
    Server,
}

/// A pipe's type, end, instance limit and buffer sizes.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct PipeInfo {
    /// Byte or message mode.
    pub mode: PipeMode,
    /// Which end the handle asked about is.
    pub end: PipeEnd,
    /// The most instances the pipe may have (255 means no limit).
    pub max_instances: u32,
    /// The outgoing buffer's size in bytes.
    pub out_buffer_size: u32,
    /// The incoming buffer's size in bytes.
    pub in_buffer_size: u32,
}

/// Asks the system about the pipe `handle`.
pub(super) fn pipe_info(handle: RawHandle) -> io::Result<PipeInfo> {
    let mut flags = 0;
    let mut out_buffer_size = 0;
    let mut in_buffer_size = 0;
    let mut max_instances = 0;
    // SAFETY: `handle` is a pipe handle the caller's pipe owns and keeps
    // open for this call; the four out-pointers are live locals.
    let ok = unsafe {
        GetNamedPipeInfo(
            handle,
            &mut flags,
            &mut out_buffer_size,
            &mut in_buffer_size,
            &mut max_instances,
        )
    };
    if ok == 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(PipeInfo {
        mode: if flags & PIPE_TYPE_MESSAGE != 0 {
            PipeMode::Message
        } else {
            PipeMode::Byte
        },
        end: if flags & PIPE_SERVER_END != 0 {
            PipeEnd::Server
        } else {
            PipeEnd::Client
        },
        max_instances,
        out_buffer_size,
        in_buffer_size,
    })
}
