//! Asynchronous file-system access (the path users know as `rt::fs`).
//!
//! Operating systems offer no portable non-blocking file I/O, so every call
//! here runs the matching `std::fs` call on the runtime's blocking pool
//! (`rt_core::task::spawn_blocking`) and must be made from within a runtime.
//! A hop to the pool costs far more than a small read, so the types here
//! batch: [`File`] reads ahead and buffers writes, and [`ReadDir`] fetches
//! entries 32 at a time. For many operations on one file, a [`File`] (or
//! one of the whole-file helpers [`read`] and [`write()`]) is much cheaper
//! than many separate calls.
//!
//! * [`File`], opened with [`File::open`], [`File::create`] or
//!   [`OpenOptions`];
//! * directories: [`read_dir`] ([`ReadDir`], [`DirEntry`]), [`create_dir`],
//!   [`create_dir_all`], [`DirBuilder`], [`remove_dir`], [`remove_dir_all`];
//! * whole files: [`read`], [`read_to_string`], [`write()`], [`copy`];
//! * names and links: [`rename`], [`remove_file`], [`hard_link`],
//!   `symlink` (Unix), `symlink_file` and `symlink_dir` (Windows), [`read_link`], [`canonicalize`];
//! * metadata: [`metadata`], [`symlink_metadata`], [`try_exists`],
//!   [`set_permissions`].

pub(crate) mod blocking;
mod dir_builder;
mod file;
mod functions;
mod open_options;
mod read_dir;

pub use dir_builder::DirBuilder;
pub use file::File;
#[cfg(unix)]
pub use functions::symlink;
pub use functions::{
    canonicalize, copy, create_dir, create_dir_all, hard_link, metadata, read, read_link,
    read_to_string, remove_dir, remove_dir_all, remove_file, rename, set_permissions,
    symlink_metadata, try_exists, write,
};
#[cfg(windows)]
pub use functions::{symlink_dir, symlink_file};
pub use open_options::OpenOptions;
pub use read_dir::{read_dir, DirEntry, ReadDir};
/// Timestamps for [`File::set_times`]: std's type, re-exported.
pub use std::fs::FileTimes;
