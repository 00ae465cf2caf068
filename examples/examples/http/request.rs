//! Parsing HTTP/1.x requests out of a byte buffer, with bounded sizes.

/// Longest accepted request line plus headers.
pub const MAX_HEAD: usize = 8 * 1024;
/// Largest accepted request body.
pub const MAX_BODY: usize = 64 * 1024;

/// The parts of a request the server acts on.
#[derive(Debug)]
pub struct Request {
    /// `GET`, `HEAD`, ...
    pub method: String,
    /// The request target, e.g. `/json`.
    pub path: String,
    /// Whether the client wants the connection kept open afterwards.
    pub keep_alive: bool,
}

/// What [`parse`] found at the front of the buffer.
#[derive(Debug)]
pub enum Parsed {
    /// A whole request (head and body) in the first `len` bytes.
    Complete { request: Request, len: usize },
    /// More bytes are needed.
    Partial,
    /// The request is unacceptable; answer with this status and close.
    Invalid(u16),
}

/// Parses one request from the front of `buf`.
pub fn parse(buf: &[u8]) -> Parsed {
    let Some(head_len) = buf.windows(4).position(|w| w == b"\r\n\r\n") else {
        return if buf.len() > MAX_HEAD {
            Parsed::Invalid(431)
        } else {
            Parsed::Partial
        };
    };
    if head_len > MAX_HEAD {
        return Parsed::Invalid(431);
    }
    let Ok(head) = std::str::from_utf8(&buf[..head_len]) else {
        return Parsed::Invalid(400);
    };
    let mut lines = head.split("\r\n");
    let mut request_line = lines.next().unwrap_or_default().split(' ');
    let (Some(method), Some(path), Some(version), None) = (
        request_line.next(),
        request_line.next(),
        request_line.next(),
        request_line.next(),
    ) else {
        return Parsed::Invalid(400);
    };
    let mut keep_alive = match version {
        "HTTP/1.1" => true,
        "HTTP/1.0" => false,
        _ => return Parsed::Invalid(505),
    };
    if method.is_empty() || !path.starts_with('/') {
        return Parsed::Invalid(400);
    }

    let mut body_len = 0usize;
    for line in lines {
        let Some((name, value)) = line.split_once(':') else {
            return Parsed::Invalid(400);
        };
        let value = value.trim();
        if name.eq_ignore_ascii_case("content-length") {
            match value.parse::<usize>() {
                Ok(n) if n <= MAX_BODY => body_len = n,
                Ok(_) => return Parsed::Invalid(413),
                Err(_) => return Parsed::Invalid(400),
            }
        } else if name.eq_ignore_ascii_case("transfer-encoding") {
            // Chunked bodies are not needed for this server's routes.
            return Parsed::Invalid(501);
        } else if name.eq_ignore_ascii_case("connection") {
            if value.eq_ignore_ascii_case("close") {
                keep_alive = false;
            } else if value.eq_ignore_ascii_case("keep-alive") {
                keep_alive = true;
            }
        }
    }

    let len = head_len + 4 + body_len;
    if buf.len() < len {
        return Parsed::Partial;
    }
    Parsed::Complete {
        request: Request {
            method: method.to_owned(),
            path: path.to_owned(),
            keep_alive,
        },
        len,
    }
}
