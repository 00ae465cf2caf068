//! The server end: [`ServerOptions`] creates a pipe instance
//! (`CreateNamedPipeW`), [`NamedPipeServer`] waits for its client.

use super::pipe_io::{pipe_api, PipeIo};
use super::{encode_addr, PipeMode};
use crate::reactor::Interest;
use std::ffi::{c_void, OsStr};
use std::io;
use std::ptr;
use windows_sys::Win32::Foundation::INVALID_HANDLE_VALUE;
use windows_sys::Win32::Storage::FileSystem::{
    FILE_FLAG_FIRST_PIPE_INSTANCE, FILE_FLAG_OVERLAPPED, PIPE_ACCESS_INBOUND, PIPE_ACCESS_OUTBOUND,
    WRITE_DAC, WRITE_OWNER,
};
use windows_sys::Win32::System::Pipes::{
    CreateNamedPipeW, PIPE_ACCEPT_REMOTE_CLIENTS, PIPE_READMODE_BYTE, PIPE_READMODE_MESSAGE,
    PIPE_REJECT_REMOTE_CLIENTS, PIPE_TYPE_BYTE, PIPE_TYPE_MESSAGE, PIPE_UNLIMITED_INSTANCES,
};
use windows_sys::Win32::System::SystemServices::ACCESS_SYSTEM_SECURITY;

/// The server end of one named pipe instance.
///
/// It reads and writes once a client is connected
/// ([`connect`](Self::connect)); it serves one client, then may
/// [`disconnect`](Self::disconnect) it and connect the next.
#[derive(Debug)]
pub struct NamedPipeServer {
    io: PipeIo,
}

pipe_api!(NamedPipeServer);

impl NamedPipeServer {
    /// Waits until a client opens this instance. Returns at once if one
    /// already has (a client may open the instance before the server
    /// asks).
    pub async fn connect(&self) -> io::Result<()> {
        let pipe = self.io.pipe();
        match pipe.connect() {
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                // The overlapped connect flags the pipe writable when it
                // completes, with its error kept for `take_error`; the
                // next `connect` then finds the client connected.
                self.io
                    .async_io(Interest::WRITABLE, || match pipe.take_error()? {
                        Some(e) => Err(e),
                        None => pipe.connect(),
                    })
                    .await
            }
            done => done,
        }
    }

    /// Disconnects the client (`DisconnectNamedPipe`): I/O in flight is
    /// cancelled and unread data dropped, and the client's next call fails.
    /// [`connect`](Self::connect) then waits for the next client.
    pub fn disconnect(&self) -> io::Result<()> {
        self.io.pipe().disconnect()
    }
}

/// How [`create`](Self::create) makes a pipe instance; the defaults are
/// tokio's: duplex, byte mode, remote clients refused, no instance limit,
/// 64 KiB buffers each way, no rights to change the pipe's security.
#[derive(Debug, Clone)]
pub struct ServerOptions {
    access_inbound: bool,
    access_outbound: bool,
    first_pipe_instance: bool,
    write_dac: bool,
    write_owner: bool,
    access_system_security: bool,
    pipe_mode: PipeMode,
    reject_remote_clients: bool,
    max_instances: u32,
    out_buffer_size: u32,
    in_buffer_size: u32,
}

impl Default for ServerOptions {
    fn default() -> Self {
        ServerOptions::new()
    }
}

impl ServerOptions {
    /// The default options.
    pub fn new() -> ServerOptions {
        ServerOptions {
            access_inbound: true,
            access_outbound: true,
            first_pipe_instance: false,
            write_dac: false,
            write_owner: false,
            access_system_security: false,
            pipe_mode: PipeMode::Byte,
            reject_remote_clients: true,
            max_instances: PIPE_UNLIMITED_INSTANCES,
            out_buffer_size: 65536,
            in_buffer_size: 65536,
        }
    }

    /// Byte or message mode, for both writing and reading
    /// (`PIPE_TYPE_*` and `PIPE_READMODE_*`).
    pub fn pipe_mode(&mut self, pipe_mode: PipeMode) -> &mut Self {
        self.pipe_mode = pipe_mode;
        self
    }

    /// Whether the client may write to the server (`PIPE_ACCESS_INBOUND`).
    pub fn access_inbound(&mut self, allowed: bool) -> &mut Self {
        self.access_inbound = allowed;
        self
    }

    /// Whether the server may write to the client
    /// (`PIPE_ACCESS_OUTBOUND`).
    pub fn access_outbound(&mut self, allowed: bool) -> &mut Self {
        self.access_outbound = allowed;
        self
    }

    /// Whether creation fails unless this is the pipe's first instance
    /// (`FILE_FLAG_FIRST_PIPE_INSTANCE`): a server that sets it knows no
    /// other process serves the name.
    pub fn first_pipe_instance(&mut self, first: bool) -> &mut Self {
        self.first_pipe_instance = first;
        self
    }

    /// Whether the handle may change the pipe's discretionary access
    /// control list (`WRITE_DAC`).
    pub fn write_dac(&mut self, requested: bool) -> &mut Self {
        self.write_dac = requested;
        self
    }

    /// Whether the handle may change the pipe's owner (`WRITE_OWNER`).
    pub fn write_owner(&mut self, requested: bool) -> &mut Self {
        self.write_owner = requested;
        self
    }

    /// Whether the handle may change the pipe's system access control
    /// list (`ACCESS_SYSTEM_SECURITY`).
    pub fn access_system_security(&mut self, requested: bool) -> &mut Self {
        self.access_system_security = requested;
        self
    }

    /// Whether clients on other machines are refused
    /// (`PIPE_REJECT_REMOTE_CLIENTS`).
    pub fn reject_remote_clients(&mut self, reject: bool) -> &mut Self {
        self.reject_remote_clients = reject;
        self
    }

    /// The most instances the pipe may have at once.
    ///
    /// # Panics
    ///
    /// If `instances` is 255 or more (255 is the system's "unlimited",
    /// the default).
    #[track_caller]
    pub fn max_instances(&mut self, instances: usize) -> &mut Self {
        assert!(instances < 255, "cannot specify more than 254 instances");
        self.max_instances = instances as u32;
        self
    }

    /// The outgoing buffer's size in bytes (advisory).
    pub fn out_buffer_size(&mut self, buffer: u32) -> &mut Self {
        self.out_buffer_size = buffer;
        self
    }

    /// The incoming buffer's size in bytes (advisory).
    pub fn in_buffer_size(&mut self, buffer: u32) -> &mut Self {
        self.in_buffer_size = buffer;
        self
    }

    /// Creates a pipe instance named `addr` (`\\.\pipe\NAME`) and registers
    /// it with the current runtime's reactor.
    ///
    /// # Errors
    ///
    /// The system's error from `CreateNamedPipeW`: `PermissionDenied`
    /// (`ERROR_ACCESS_DENIED`) when `first_pipe_instance` is set and the
    /// name exists, `ERROR_PIPE_BUSY` when the instance limit is reached;
    /// or an error from registering outside a runtime with I/O.
    pub fn create(&self, addr: impl AsRef<OsStr>) -> io::Result<NamedPipeServer> {
        // SAFETY: a null security-attributes pointer asks for the default
        // security descriptor.
        unsafe { self.create_with_security_attributes_raw(addr, ptr::null_mut()) }
    }

    /// [`create`](Self::create) with `attrs` passed to `CreateNamedPipeW`
    /// as its security attributes.
    ///
    /// # Safety
    ///
    /// `attrs` must be null or point to a valid `SECURITY_ATTRIBUTES`
    /// that lives through the call.
    ///
    /// # Errors
    ///
    /// As [`create`](Self::create).
    pub unsafe fn create_with_security_attributes_raw(
        &self,
        addr: impl AsRef<OsStr>,
        attrs: *mut c_void,
    ) -> io::Result<NamedPipeServer> {
        let addr = encode_addr(addr.as_ref());
        let open_mode = [
            (self.access_inbound, PIPE_ACCESS_INBOUND),
            (self.access_outbound, PIPE_ACCESS_OUTBOUND),
            (self.first_pipe_instance, FILE_FLAG_FIRST_PIPE_INSTANCE),
            (self.write_dac, WRITE_DAC),
            (self.write_owner, WRITE_OWNER),
            (self.access_system_security, ACCESS_SYSTEM_SECURITY),
        ]
        .into_iter()
        .filter(|&(set, _)| set)
        .fold(FILE_FLAG_OVERLAPPED, |mode, (_, bit)| mode | bit);
        let mut pipe_mode = match self.pipe_mode {
            PipeMode::Byte => PIPE_TYPE_BYTE | PIPE_READMODE_BYTE,
            PipeMode::Message => PIPE_TYPE_MESSAGE | PIPE_READMODE_MESSAGE,
        };
        pipe_mode |= if self.reject_remote_clients {
            PIPE_REJECT_REMOTE_CLIENTS
        } else {
            PIPE_ACCEPT_REMOTE_CLIENTS
        };
        // SAFETY: `addr` is a NUL-terminated UTF-16 string that outlives
        // the call; `attrs` is null or valid, by the caller's contract.
        let handle = unsafe {
            CreateNamedPipeW(
                addr.as_ptr(),
                open_mode,
                pipe_mode,
                self.max_instances,
                self.out_buffer_size,
                self.in_buffer_size,
                0,
                attrs.cast_const().cast(),
            )
        };
        if handle == INVALID_HANDLE_VALUE {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: `handle` is the pipe instance just created with
        // `FILE_FLAG_OVERLAPPED`, and nothing else owns it.
        unsafe { NamedPipeServer::from_raw_handle(handle) }
    }
}
