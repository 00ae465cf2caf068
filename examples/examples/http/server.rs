//! The HTTP/1.1 server itself: the accept loop, one task per connection
//! reading requests and writing answers, and the two routes. It is written
//! against a crate alias `tk` so that the `http` example serves it on rt
//! and the `http_vs_tokio` benchmark serves the very same code on tokio as
//! well.

use super::request::{self, Parsed, Request};
use super::tk;
use tk::io::{AsyncReadExt, AsyncWriteExt};
use tk::net::{TcpListener, TcpStream};
use tk::sync::watch;
use tk::task::JoinSet;

/// Accepts connections until `shutdown` turns true, then closes the
/// listener and returns the connections still open; each of them
/// finishes the requests it has read and closes on its own. What to wait
/// for then is the caller's: the `http` example drains them with a grace
/// period, the benchmark waits for them all.
pub async fn accept(listener: TcpListener, mut shutdown: watch::Receiver<bool>) -> JoinSet<()> {
    let mut connections = JoinSet::new();
    loop {
        // Shutdown is looked at first, so that a connection that closed
        // because of it is still in the returned set.
        tk::select! {
            biased;
            _ = shutdown.changed() => break,
            accepted = listener.accept() => match accepted {
                Ok((stream, _peer)) => {
                    let _ = stream.set_nodelay(true);
                    connections.spawn(connection(stream, shutdown.clone()));
                }
                Err(e) => eprintln!("http: accept failed: {e}"),
            },
            Some(_) = connections.join_next(), if !connections.is_empty() => {}
        }
    }
    drop(listener);
    connections
}

/// Serves requests on one connection until it closes.
async fn connection(mut stream: TcpStream, mut shutdown: watch::Receiver<bool>) {
    let mut input = Vec::with_capacity(4096);
    let mut chunk = vec![0u8; 4096];
    let mut out = Vec::new();
    loop {
        // Answer every complete request already buffered, in order.
        let mut keep_open = true;
        while keep_open {
            match request::parse(&input) {
                Parsed::Complete { request, len } => {
                    input.drain(..len);
                    respond(&request, &mut out);
                    keep_open = request.keep_alive;
                }
                Parsed::Partial => break,
                Parsed::Invalid(status) => {
                    write_response(
                        status,
                        "text/plain",
                        reason(status).as_bytes(),
                        true,
                        true,
                        &mut out,
                    );
                    keep_open = false;
                }
            }
        }
        if !out.is_empty() {
            if stream.write_all(&out).await.is_err() {
                return;
            }
            out.clear();
        }
        if !keep_open {
            return;
        }
        tk::select! {
            read = stream.read(&mut chunk) => match read {
                Ok(0) | Err(_) => return,
                Ok(n) => input.extend_from_slice(&chunk[..n]),
            },
            _ = shutdown.changed() => return,
        }
    }
}

/// Routes `request` and appends the response to `out`.
fn respond(request: &Request, out: &mut Vec<u8>) {
    let close = !request.keep_alive;
    let with_body = request.method != "HEAD";
    if request.method != "GET" && request.method != "HEAD" {
        let body = b"only GET and HEAD are supported\n";
        return write_response(405, "text/plain", body, with_body, close, out);
    }
    match request.path.as_str() {
        "/" => write_response(200, "text/plain", b"Hello, world!\n", with_body, close, out),
        "/json" => {
            // Small enough to write by hand; a real service would use a
            // serializer.
            let body = br#"{"message":"Hello, world!","server":"rt"}"#;
            write_response(200, "application/json", body, with_body, close, out)
        }
        _ => write_response(404, "text/plain", b"not found\n", with_body, close, out),
    }
}

fn write_response(
    status: u16,
    content_type: &str,
    body: &[u8],
    with_body: bool,
    close: bool,
    out: &mut Vec<u8>,
) {
    let connection = if close { "Connection: close\r\n" } else { "" };
    out.extend_from_slice(
        format!(
            "HTTP/1.1 {status} {}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n{connection}\r\n",
            reason(status),
            body.len()
        )
        .as_bytes(),
    );
    if with_body {
        out.extend_from_slice(body);
    }
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        404 => "Not Found",
        405 => "Method Not Allowed",
        413 => "Content Too Large",
        431 => "Request Header Fields Too Large",
        501 => "Not Implemented",
        505 => "HTTP Version Not Supported",
        _ => "Error",
    }
}
