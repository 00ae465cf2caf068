//! A small key-value server speaking the Redis protocol (RESP2): PING,
//! SET, GET and the `CONFIG GET` that redis-benchmark asks first, with
//! pipelining (every complete command in the buffer is answered in one
//! write). It plays the part of rt's kv example in the timings: the kv
//! example is written against rt's own paths, so only a server written
//! against tokio's can run on both runtimes. Sizes are bounded; malformed
//! input gets an error reply and the connection is closed.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use bytes::{Buf, BytesMut};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio_util::sync::CancellationToken;

/// The most arguments in one command, and the longest argument.
const MAX_ARGS: usize = 64;
const MAX_ARG: usize = 1 << 20;
/// The most buffered input of one connection.
const MAX_BUFFER: usize = 8 << 20;

type Db = Arc<Mutex<HashMap<Vec<u8>, Vec<u8>>>>;

/// Serves on a loopback port until `token` is cancelled; prints
/// `listening on ADDR` first.
pub async fn serve(token: CancellationToken) -> std::io::Result<()> {
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    println!("listening on {}", listener.local_addr()?);
    let db = Db::default();
    loop {
        tokio::select! {
            accepted = listener.accept() => {
                let (stream, _) = accepted?;
                stream.set_nodelay(true)?;
                tokio::spawn(session(stream, db.clone(), token.clone()));
            }
            () = token.cancelled() => return Ok(()),
        }
    }
}

async fn session(mut stream: TcpStream, db: Db, token: CancellationToken) {
    let mut input = BytesMut::with_capacity(16 * 1024);
    let mut output = Vec::with_capacity(16 * 1024);
    loop {
        let read = tokio::select! {
            read = stream.read_buf(&mut input) => read,
            () = token.cancelled() => return,
        };
        match read {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        let mut fatal = false;
        loop {
            match parse(&input) {
                Ok(Some((args, used))) => {
                    answer(&args, &db, &mut output);
                    input.advance(used);
                }
                Ok(None) => break,
                Err(problem) => {
                    output.extend_from_slice(format!("-ERR {problem}\r\n").as_bytes());
                    fatal = true;
                    break;
                }
            }
        }
        if input.len() > MAX_BUFFER {
            output.extend_from_slice(b"-ERR command too large\r\n");
            fatal = true;
        }
        if stream.write_all(&output).await.is_err() || fatal {
            return;
        }
        output.clear();
    }
}

/// A parsed command: its arguments, borrowed from the buffer, and how
/// many bytes of the buffer it took.
type Parsed<'a> = (Vec<&'a [u8]>, usize);

/// One command from the front of `buf`, `None` while it is incomplete.
fn parse(buf: &[u8]) -> Result<Option<Parsed<'_>>, String> {
    let Some((count, mut at)) = header(buf, 0, b'*')? else {
        return Ok(None);
    };
    if count == 0 || count > MAX_ARGS {
        return Err(format!("a command of {count} arguments"));
    }
    let mut args = Vec::with_capacity(count);
    for _ in 0..count {
        let Some((len, start)) = header(buf, at, b'$')? else {
            return Ok(None);
        };
        if len > MAX_ARG {
            return Err(format!("an argument of {len} bytes"));
        }
        if buf.len() < start + len + 2 {
            return Ok(None);
        }
        if &buf[start + len..start + len + 2] != b"\r\n" {
            return Err("an argument not followed by CRLF".to_string());
        }
        args.push(&buf[start..start + len]);
        at = start + len + 2;
    }
    Ok(Some((args, at)))
}

/// A `<kind><number>\r\n` line at `at`: the number and where the line ends.
fn header(buf: &[u8], at: usize, kind: u8) -> Result<Option<(usize, usize)>, String> {
    let Some(&first) = buf.get(at) else {
        return Ok(None);
    };
    if first != kind {
        return Err(format!(
            "expected {:?}, found {:?}",
            kind as char, first as char
        ));
    }
    let Some(end) = buf[at..].windows(2).take(24).position(|w| w == b"\r\n") else {
        return if buf.len() - at > 24 {
            Err("a header line too long".to_string())
        } else {
            Ok(None)
        };
    };
    let digits = &buf[at + 1..at + end];
    let number = std::str::from_utf8(digits)
        .ok()
        .and_then(|d| d.parse().ok())
        .ok_or_else(|| format!("a bad length {:?}", String::from_utf8_lossy(digits)))?;
    Ok(Some((number, at + end + 2)))
}

fn answer(args: &[&[u8]], db: &Db, out: &mut Vec<u8>) {
    let name = args[0].to_ascii_uppercase();
    match (name.as_slice(), args.len()) {
        (b"PING", 1) => out.extend_from_slice(b"+PONG\r\n"),
        (b"SET", 3) => {
            db.lock()
                .unwrap_or_else(|e| e.into_inner())
                .insert(args[1].to_vec(), args[2].to_vec());
            out.extend_from_slice(b"+OK\r\n");
        }
        (b"GET", 2) => match db.lock().unwrap_or_else(|e| e.into_inner()).get(args[1]) {
            Some(value) => bulk(out, value),
            None => out.extend_from_slice(b"$-1\r\n"),
        },
        (b"CONFIG", 3) => {
            let value: &[u8] = match args[2].to_ascii_lowercase().as_slice() {
                b"save" => b"",
                b"appendonly" => b"no",
                _ => return out.extend_from_slice(b"*0\r\n"),
            };
            out.extend_from_slice(b"*2\r\n");
            bulk(out, args[2]);
            bulk(out, value);
        }
        _ => out.extend_from_slice(b"-ERR unknown command or wrong number of arguments\r\n"),
    }
}

fn bulk(out: &mut Vec<u8>, value: &[u8]) {
    out.extend_from_slice(format!("${}\r\n", value.len()).as_bytes());
    out.extend_from_slice(value);
    out.extend_from_slice(b"\r\n");
}
