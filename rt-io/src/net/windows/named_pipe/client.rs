//! The client end: [`ClientOptions`] opens an existing pipe instance
//! (`CreateFileW`) as a [`NamedPipeClient`].

use super::pipe_io::{pipe_api, PipeIo};
use super::{encode_addr, PipeMode};
use std::ffi::{c_void, OsStr};
use std::io;
use std::os::windows::io::{AsRawHandle, FromRawHandle, IntoRawHandle, OwnedHandle};
use std::ptr;
use windows_sys::Win32::Foundation::{GENERIC_READ, GENERIC_WRITE, INVALID_HANDLE_VALUE};
use windows_sys::Win32::Storage::FileSystem::{
    CreateFileW, FILE_FLAG_OVERLAPPED, OPEN_EXISTING, SECURITY_IDENTIFICATION,
    SECURITY_SQOS_PRESENT,
};
use windows_sys::Win32::System::Pipes::{SetNamedPipeHandleState, PIPE_READMODE_MESSAGE};

/// The client end of a named pipe, connected from the moment it opens.
#[derive(Debug)]
pub struct NamedPipeClient {
    io: PipeIo,
}

pipe_api!(NamedPipeClient);

/// How [`open`](Self::open) opens a pipe; the defaults are tokio's: read
/// and write access, byte mode, the server may identify but not
/// impersonate the client (`SECURITY_IDENTIFICATION`).
#[derive(Debug, Clone)]
pub struct ClientOptions {
    read: bool,
    write: bool,
    security_qos_flags: u32,
    pipe_mode: PipeMode,
}

impl Default for ClientOptions {
    fn default() -> Self {
        ClientOptions::new()
    }
}

impl ClientOptions {
    /// The default options.
    pub fn new() -> ClientOptions {
        ClientOptions {
            read: true,
            write: true,
            security_qos_flags: SECURITY_IDENTIFICATION | SECURITY_SQOS_PRESENT,
            pipe_mode: PipeMode::Byte,
        }
    }

    /// Whether the client may read (`GENERIC_READ`).
    pub fn read(&mut self, allowed: bool) -> &mut Self {
        self.read = allowed;
        self
    }

    /// Whether the client may write (`GENERIC_WRITE`).
    pub fn write(&mut self, allowed: bool) -> &mut Self {
        self.write = allowed;
        self
    }

    /// The security quality-of-service flags `CreateFileW` receives
    /// (`SECURITY_*`); `SECURITY_SQOS_PRESENT` is always added, without
    /// which the system ignores the others.
    pub fn security_qos_flags(&mut self, flags: u32) -> &mut Self {
        self.security_qos_flags = flags | SECURITY_SQOS_PRESENT;
        self
    }

    /// The read mode: [`PipeMode::Message`] reads one message at a time,
    /// and needs a server created in message mode.
    pub fn pipe_mode(&mut self, pipe_mode: PipeMode) -> &mut Self {
        self.pipe_mode = pipe_mode;
        self
    }

    /// Opens the pipe named `addr` (`\\.\pipe\NAME`) and registers the
    /// client with the current runtime's reactor.
    ///
    /// # Errors
    ///
    /// The system's error from `CreateFileW`: `NotFound` when no instance
    /// exists, and `ERROR_PIPE_BUSY` (raw OS error 231) when every instance
    /// already has a client; the caller retries later, or after the
    /// server creates another instance. An error from registering outside
    /// a runtime with I/O.
    pub fn open(&self, addr: impl AsRef<OsStr>) -> io::Result<NamedPipeClient> {
        // SAFETY: a null security-attributes pointer passes none.
        unsafe { self.open_with_security_attributes_raw(addr, ptr::null_mut()) }
    }

    /// [`open`](Self::open) with `attrs` passed to `CreateFileW` as its
    /// security attributes.
    ///
    /// # Safety
    ///
    /// `attrs` must be null or point to a valid `SECURITY_ATTRIBUTES`
    /// that lives through the call.
    ///
    /// # Errors
    ///
    /// As [`open`](Self::open).
    pub unsafe fn open_with_security_attributes_raw(
        &self,
        addr: impl AsRef<OsStr>,
        attrs: *mut c_void,
    ) -> io::Result<NamedPipeClient> {
        let addr = encode_addr(addr.as_ref());
        let mut access = 0;
        if self.read {
            access |= GENERIC_READ;
        }
        if self.write {
            access |= GENERIC_WRITE;
        }
        // SAFETY: `addr` is a NUL-terminated UTF-16 string that outlives
        // the call; `attrs` is null or valid, by the caller's contract; no
        // template file is passed.
        let raw = unsafe {
            CreateFileW(
                addr.as_ptr(),
                access,
                0,
                attrs.cast_const().cast(),
                OPEN_EXISTING,
                self.security_qos_flags | FILE_FLAG_OVERLAPPED,
                ptr::null_mut(),
            )
        };
        if raw == INVALID_HANDLE_VALUE {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: `raw` is the handle just opened, owned by nothing else;
        // `OwnedHandle` closes it if a step below fails.
        let handle = unsafe { OwnedHandle::from_raw_handle(raw) };
        if self.pipe_mode == PipeMode::Message {
            let mode = PIPE_READMODE_MESSAGE;
            // SAFETY: `handle` is open for this call; `mode` is a live
            // local and the two optional pointers are null.
            let ok = unsafe {
                SetNamedPipeHandleState(handle.as_raw_handle(), &mode, ptr::null(), ptr::null())
            };
            if ok == 0 {
                return Err(io::Error::last_os_error());
            }
        }
        // SAFETY: the handle was opened with `FILE_FLAG_OVERLAPPED` and its
        // ownership passes from `handle` to the client.
        unsafe { NamedPipeClient::from_raw_handle(handle.into_raw_handle()) }
    }
}
