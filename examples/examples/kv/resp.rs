//! The RESP2 wire format: parsing commands out of a byte buffer and
//! writing replies.
//!
//! Clients send either an array of bulk strings (`*2\r\n$3\r\nGET\r\n$1\r\nk\r\n`)
//! or an "inline" line of space-separated words (`GET k\r\n`, handy with
//! `nc`). Every size is bounded, so a hostile client gets a protocol error
//! instead of making the server buffer without limit.

/// Longest accepted bulk string (a key or a value).
pub const MAX_BULK: usize = 512 * 1024;
/// Most arguments in one command.
pub const MAX_ARGS: usize = 1024;
/// Longest accepted inline command line.
pub const MAX_INLINE: usize = 64 * 1024;
/// Most bytes buffered for one unfinished command.
pub const MAX_REQUEST: usize = 4 * 1024 * 1024;
/// Longest accepted `*N` / `$N` header line.
const MAX_HEADER: usize = 32;

/// A command's words: the name first, then its arguments.
pub type Command = Vec<Vec<u8>>;

/// Parses one command from the front of `buf`.
///
/// Returns `Ok(None)` when `buf` holds only part of a command, and
/// `Ok(Some((command, used)))` when a whole one was found in the first
/// `used` bytes (the command may be empty: a blank line or `*0`).
pub fn parse_command(buf: &[u8]) -> Result<Option<(Command, usize)>, String> {
    match buf.first() {
        None => Ok(None),
        Some(b'*') => parse_array(buf),
        Some(_) => parse_inline(buf),
    }
}

fn parse_array(buf: &[u8]) -> Result<Option<(Command, usize)>, String> {
    let Some((count, mut pos)) = parse_header(buf, 1, "multibulk")? else {
        return Ok(None);
    };
    if count <= 0 {
        return Ok(Some((Vec::new(), pos)));
    }
    if count > MAX_ARGS as i64 {
        return Err("invalid multibulk length".into());
    }
    let mut command = Vec::with_capacity(count as usize);
    for _ in 0..count {
        match buf.get(pos) {
            None => return Ok(None),
            Some(b'$') => {}
            Some(&other) => return Err(format!("expected '$', got '{}'", other.escape_ascii())),
        }
        let Some((len, start)) = parse_header(buf, pos + 1, "bulk")? else {
            return Ok(None);
        };
        if len < 0 || len > MAX_BULK as i64 {
            return Err("invalid bulk length".into());
        }
        let end = start + len as usize;
        if buf.len() < end + 2 {
            return Ok(None);
        }
        if &buf[end..end + 2] != b"\r\n" {
            return Err("bulk string not followed by CRLF".into());
        }
        command.push(buf[start..end].to_vec());
        pos = end + 2;
    }
    Ok(Some((command, pos)))
}

/// Reads the integer of a `*N\r\n` or `$N\r\n` header that starts at
/// `start` (just after the type byte).
fn parse_header(buf: &[u8], start: usize, what: &str) -> Result<Option<(i64, usize)>, String> {
    let rest = &buf[start.min(buf.len())..];
    let Some(len) = rest.windows(2).position(|w| w == b"\r\n") else {
        if rest.len() > MAX_HEADER {
            return Err(format!("invalid {what} length"));
        }
        return Ok(None);
    };
    let number = std::str::from_utf8(&rest[..len])
        .ok()
        .and_then(|text| text.parse::<i64>().ok())
        .ok_or_else(|| format!("invalid {what} length"))?;
    Ok(Some((number, start + len + 2)))
}

fn parse_inline(buf: &[u8]) -> Result<Option<(Command, usize)>, String> {
    let Some(newline) = buf.iter().position(|&b| b == b'\n') else {
        if buf.len() > MAX_INLINE {
            return Err("too big inline request".into());
        }
        return Ok(None);
    };
    let line = buf[..newline]
        .strip_suffix(b"\r")
        .unwrap_or(&buf[..newline]);
    let command: Command = line
        .split(|b| b.is_ascii_whitespace())
        .filter(|word| !word.is_empty())
        .map(<[u8]>::to_vec)
        .collect();
    if command.len() > MAX_ARGS {
        return Err("invalid multibulk length".into());
    }
    Ok(Some((command, newline + 1)))
}

/// A reply, written with [`Reply::write_to`].
#[derive(Debug, PartialEq)]
pub enum Reply {
    /// `+OK`-style status line.
    Simple(&'static str),
    /// `-ERR ...` line; the text includes the error kind (`ERR`, `WRONGTYPE`).
    Error(String),
    /// `:42`.
    Integer(i64),
    /// `$3\r\nabc`.
    Bulk(Vec<u8>),
    /// `$-1`, the missing value.
    Nil,
    /// `*N` followed by N replies.
    Array(Vec<Reply>),
}

impl Reply {
    /// An `-ERR` reply with `message`.
    pub fn err(message: impl std::fmt::Display) -> Reply {
        Reply::Error(format!("ERR {message}"))
    }

    /// Appends the encoded reply to `out`.
    pub fn write_to(&self, out: &mut Vec<u8>) {
        match self {
            Reply::Simple(text) => {
                out.push(b'+');
                out.extend_from_slice(text.as_bytes());
            }
            Reply::Error(text) => {
                out.push(b'-');
                // A CR or LF inside would end the line early.
                out.extend(
                    text.bytes()
                        .map(|b| if b == b'\r' || b == b'\n' { b' ' } else { b }),
                );
            }
            Reply::Integer(n) => out.extend_from_slice(format!(":{n}").as_bytes()),
            Reply::Bulk(bytes) => {
                out.extend_from_slice(format!("${}\r\n", bytes.len()).as_bytes());
                out.extend_from_slice(bytes);
            }
            Reply::Nil => out.extend_from_slice(b"$-1"),
            Reply::Array(items) => {
                out.extend_from_slice(format!("*{}\r\n", items.len()).as_bytes());
                for item in items {
                    item.write_to(out);
                }
                return;
            }
        }
        out.extend_from_slice(b"\r\n");
    }
}
