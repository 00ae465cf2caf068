//! Windows-only networking: named pipes, at tokio's path
//! (`net::windows::named_pipe`).

pub mod named_pipe;
